"""Mouse picking: which card node lies under a screen point, and screen points of nodes.

Screen points are Panda3D mouse coordinates (-1..1 across the window, y up), so a test can
ask where a card is drawn and "click" exactly there through the same code the mouse uses.
"""

from __future__ import annotations

from panda3d.core import (
    CollisionHandlerQueue,
    CollisionNode,
    CollisionRay,
    CollisionTraverser,
    NodePath,
    Plane,
    Point2,
    Point3,
    Vec3,
)

from .cards import PICK_MASK, CardNode


class Picker:
    """Casts a ray from the camera through a screen point into the card nodes."""

    def __init__(self, base, root: NodePath) -> None:
        self.base = base
        self.root = root
        self.traverser = CollisionTraverser("card-picker")
        self.handler = CollisionHandlerQueue()
        node = CollisionNode("mouse-ray")
        node.setFromCollideMask(PICK_MASK)
        node.setIntoCollideMask(0)
        self.ray = CollisionRay()
        node.addSolid(self.ray)
        self.ray_np = base.cam.attachNewNode(node)
        self.traverser.addCollider(self.ray_np, self.handler)

    def pick_all(self, mpos: tuple[float, float]) -> list[CardNode]:
        """Every card node under the point, nearest first."""
        self.ray.setFromLens(self.base.camNode, mpos[0], mpos[1])
        self.traverser.traverse(self.root)
        self.handler.sortEntries()
        out: list[CardNode] = []
        for i in range(self.handler.getNumEntries()):
            into = self.handler.getEntry(i).getIntoNodePath()
            node = into.getPythonTag("card_node")
            if node is not None and node not in out:
                out.append(node)
        return out

    def pick(self, mpos: tuple[float, float]) -> CardNode | None:
        hits = self.pick_all(mpos)
        return hits[0] if hits else None

    def ray_on_plane(self, mpos: tuple[float, float], space: NodePath) -> Point3 | None:
        """Where the ray through ``mpos`` meets the z = 0 plane of ``space``."""
        near, far = Point3(), Point3()
        if not self.base.camLens.extrude(Point2(*mpos), near, far):
            return None
        near = space.getRelativePoint(self.base.cam, near)
        far = space.getRelativePoint(self.base.cam, far)
        hit = Point3()
        if Plane(Vec3(0, 0, 1), Point3(0, 0, 0)).intersectsLine(hit, near, far):
            return hit
        return None

    def screen_point(self, np: NodePath, local: Point3 | None = None) -> tuple[float, float] | None:
        """Mouse coordinates at which ``np`` (or a point in its space) is drawn, or None."""
        p3 = self.base.cam.getRelativePoint(np, local or Point3(0, 0, 0))
        p2 = Point2()
        if not self.base.camLens.project(p3, p2):
            return None
        return (p2.x, p2.y)

    def visible_point(self, node: CardNode) -> tuple[float, float] | None:
        """A screen point where ``node`` itself is the nearest card (its uncovered part)."""
        from .cards import CARD_H, CARD_W

        for fx, fy in (
            (0, 0),
            (-0.35, 0.3),
            (-0.4, 0.0),
            (-0.4, -0.3),
            (0.35, 0.3),
            (0, 0.38),
            (0.4, 0.0),
            (-0.42, 0.42),
            (0, -0.38),
            (0.4, -0.35),
        ):
            pt = self.screen_point(node.body, Point3(fx * CARD_W, fy * CARD_H, 0))
            if pt is not None and self.pick(pt) is node:
                return pt
        return None


class MouseButtons:
    """Turns mouse-button events into ``press``/``release`` at the pointer (-1..1 coordinates).

    Mixed into whatever owns ``base`` and the ``press``/``release`` handlers, so the real mouse
    and the tests' simulated clicks go through the same two methods."""

    base: object

    def _mouse(self) -> tuple[float, float] | None:
        mw = self.base.mouseWatcherNode
        if mw is None or not mw.hasMouse():
            return None
        m = mw.getMouse()
        return (m.x, m.y)

    def _mouse_down(self) -> None:
        pos = self._mouse()
        if pos is not None:
            self.press(pos)

    def _mouse_up(self) -> None:
        pos = self._mouse()
        if pos is not None:
            self.release(pos)
