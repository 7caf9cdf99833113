"""A recorded hand on the 3D table, both hands face up, stepped forwards and back."""

from __future__ import annotations

from ...driver import GameDriver, OneHand, ReplayLog
from ...engine import best_melds
from ...history import HandRecord, Replay
from ..tabletop import layout

FAR_SCALE, FAR_STEP, FAR_GAP, FAR_TILT = 1.3, 5.0, 2.6, 35.0  # the far hand in a replay


class ReplayView:
    """A recorded hand on the 3D table, both hands face up, stepped forwards and back.

    Every step rebuilds the table from the deal: the game driver plays the log's actions up
    to the step (``ReplaySeat``s), its events shown instantly (the engine is deterministic,
    so back is exact); the far hand is then turned face up."""

    def __init__(self, app, record: HandRecord) -> None:
        self.app = app
        self.scene = app.scene
        self.replay = Replay(record)
        self.show()

    def show(self) -> None:
        app, scene = self.app, self.scene
        queue = app.queue
        queue.clear()
        speed, sound = queue.speed, app.sounds.enabled
        queue.speed, app.sounds.enabled = 0, False
        try:
            for node in scene.cards:
                node.body.setScale(1)
            hand = self.replay.record.replay_hand()
            self._show_events(hand.events)
            log = ReplayLog(self.replay.actions[: self.replay.step])
            driver = GameDriver(OneHand(hand), log.seats(len(hand.hands)))
            driver.on_events.append(lambda action, events: self._show_events(events))
            driver.run()
            queue.finish_all()
            scene.relayout_hand(0)
            self._face_up_far_hand(hand)
        finally:
            queue.speed, app.sounds.enabled = speed, sound

    def _show_events(self, events) -> None:
        """Both hands face up: the replay shows every event as it is, nothing redacted."""
        for e in events:
            self.scene.show_event(e)

    def _face_up_far_hand(self, hand) -> None:
        """Lay seat 1's cards face up, grouped by melds, where its hand lies."""
        scene = self.scene
        nodes = scene.hands[1]
        cards = list(hand.hands[1])
        if not nodes or len(nodes) != len(cards):
            return
        known = {n.card: n for n in nodes if n.card is not None}
        spare = [n for n in nodes if n.card is None or n.card not in cards]
        for c in cards:
            if c not in known:
                node = spare.pop()
                node.set_face(c)
                known[c] = node
        arr = best_melds(cards)
        groups = [sorted(m, key=lambda c: (c.rank, c.suit)) for m in arr.melds]
        groups.append(sorted(arr.deadwood, key=lambda c: (c.rank, c.suit)))
        groups = [g for g in groups if g]
        xs = layout.group_xs([len(g) for g in groups], FAR_STEP, FAR_GAP)
        flat = [c for g in groups for c in g]
        for i, (c, x) in enumerate(zip(flat, xs)):
            node = known[c]
            scene._place(node, scene.anchor_opp, (x, -3.0, 2.0 + i * 0.03), (0.0, FAR_TILT, 0.0))
            node.body.setScale(FAR_SCALE)

    def forward(self) -> None:
        if not self.replay.at_end:
            self.replay.seek(self.replay.step + 1)
            self.show()

    def back(self) -> None:
        if not self.replay.at_start:
            self.replay.back()
            self.show()

    def start(self) -> None:
        self.replay.seek(0)
        self.show()

    def end(self) -> None:
        self.replay.seek(self.replay.length)
        self.show()

    def destroy(self) -> None:
        """Gather the cards back into the deck for the menus."""
        from ...engine import HandStarted

        queue = self.app.queue
        speed, queue.speed = queue.speed, 0
        try:
            for node in self.scene.cards:
                node.body.setScale(1)
            self.scene.show_event(HandStarted(0, 0, 31))
            queue.finish_all()
        finally:
            queue.speed = speed
