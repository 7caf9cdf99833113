"""The tutorial on the real table: a ``TutorialRunner`` played through the table scene.

The runner (``gin3d.tutorial``) owns the script and the engine state; this module only shows
it. Each chapter's one-hand ``Game`` runs on the scene through ``TutorialController`` (the
table's own game loop, with the script instead of a computer player), so the deal, draws,
knocks and layoffs are animated exactly as in a real game and the learner acts through the
normal mouse/keyboard input (``TableInput``). A narration panel carries the text and the
Back/Next buttons; focus cards glow and an arrow bobs over the first thing talked about;
the camera moves to the step's named pose; example cards ("show" rows) stand on a board
above the felt.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from direct.interval.IntervalGlobal import LerpPosQuatInterval
from panda3d.core import NodePath, Point3, Quat, TextNode, TransparencyAttrib

from ...driver import ScriptSeat
from ...engine import (
    Action,
    Card,
    Discard,
    DrawDiscard,
    DrawStock,
    HandStarted,
    Knock,
    LayOff,
    RuleSet,
)
from ...tutorial import PLAY, WATCH, Chapter, Hint, TutorialRunner
from ..control.autoplay import InputDriver
from ..control.controller import TableController
from ..control.tableinput import TableInput
from ..tabletop import layout
from ..tabletop.cards import CARD_H, CardNode
from ..tabletop.picking import MouseButtons, Picker
from ..tabletop.spread_label import LABEL_CARD
from ..ui import theme
from ..ui.hud import Hud, suitify
from .narration import NarrationPanel, Pointer

FOCUS_GLOW = (0.35, 0.8, 1.0, 0.95)
SHOW_POS = (5.5, -3.0, 17.0)  # the board example cards stand on, above the felt
SHOW_HPR = (0.0, 50.0, 0.0)
SHOW_STEP = 4.6
SHOW_GAP = 4.0
SHOW_ROW = 12.5
SHOW_SCALE = 0.82
# the spread rows a little smaller and to the right: clear of the narration panel on the left
SPREAD_FRAME = (7.0, 0.8)  # (shift in cm, scale)
CAMERA_POSES = {  # name: (camera position, point looked at)
    "table": (layout.CAMERA_POS, layout.CAMERA_LOOK),
    "score": (layout.CAMERA_POS, layout.CAMERA_LOOK),
    "hand": ((0.0, -66.0, 40.0), (0.0, -13.0, 0.0)),
    "pile": ((2.0, -36.0, 40.0), (1.5, 2.0, 0.0)),
    "stock": ((-2.0, -36.0, 40.0), (-1.5, 2.0, 0.0)),
    "melds": ((0.0, -50.0, 46.0), (0.0, 2.0, 0.0)),
    "opponent": ((0.0, -34.0, 48.0), (0.0, 14.0, 0.0)),
    "show": ((0.0, -58.0, 44.0), (0.0, -2.0, 8.0)),
}
# close-ups that leave the bottom of the table (the learner's hand) out of the frame
CUTS_THE_HAND = frozenset({"pile", "stock", "opponent", "melds"})
READ_SECONDS = (1.8, 0.26)  # Watch mode: a step stays this long (base + per word) by itself
FAST_FORWARD = 12  # more events than this at once are played faster


def practice_hint(view) -> Hint:
    """The hint for the practice hand: the AI's best move and the reason for it."""
    from ...ai.hint import hint as ai_hint

    return ai_hint(view, budget_s=0.25)


class TutorialController(TableController):
    """The table's game loop for a tutorial chapter: seat 0 is the learner, seat 1 the script.

    In the practice hand of Play along both seats play through the game driver like a game:
    the learner's legal moves go to the local seat, the opponent is a ``ScriptSeat`` that the
    runner answers (``TutorialRunner.opponent_move``). In the scripted steps the learner's
    moves go to the runner, which applies a right move (the events are then animated) and
    explains a wrong one (the state is left as it was). ``legal`` also offers moves the
    engine refuses (a throw-back, a knock over the limit), so the input reacts to them and
    the lesson can say why not.
    """

    def __init__(self, view: TutorialView, game) -> None:
        self.tutorial = view
        runner = view.runner
        super().__init__(
            view.base,
            view.scene,
            game,
            [None, ScriptSeat(runner.opponent_move, runner.opponent)],
            names=("You", runner.opponent),
        )
        self.on_applied.append(lambda action, events: view.practice_moved())

    # -- the chapters on three and four players: the HUD as those tables show it --------
    def _group(self, players: int):
        group = self.tutorial.runner.chapter.group
        return group if group is not None and group.players == players else None

    @property
    def bench(self) -> tuple[str, int] | None:
        """Three players: the one who dealt sits out (and neither seat gets the dealer mark)."""
        group = self._group(3)
        return (group.sitter, 0) if group is not None else None

    @property
    def team_names(self) -> tuple[str, str] | None:
        """Four in two teams: the score lines are the teams', yours first."""
        group = self._group(4)
        if group is None:
            return None
        return (
            f"You & {group.partner}",
            f"{self.tutorial.runner.opponent} & {group.partner_opponent}",
        )

    def hud_notes(self) -> tuple[str, ...]:
        """Four in two teams: the partner's hand at the other table, its result once yours
        is over (the lesson tells it then)."""
        group = self._group(4)
        if group is None:
            return ()
        names = self.tutorial.runner.names()
        head = f"Partner {group.partner} vs {group.partner_opponent}"
        if not names["hand_over"]:
            return (f"{head}: playing",)
        return (f"{head}: {names['partner_winner']} won {names['partner_points']}",)

    def view(self, seat: int = 0):
        """The hand's view; in the partnership chapter with the teams' target and, once the
        hand is over, the round's score (``round_score`` of both hands), not the hand's."""
        view = super().view(seat)
        if self._group(4) is None:
            return view
        names = self.tutorial.runner.names()
        scores = tuple(names["round_points"] * (names["round_team"] == t) for t in (0, 1))
        return replace(view, target=view.rules.partnership_target, scores=scores)

    def score_sheet(self) -> None:
        """No pad in a lesson: chapter 12 teaches the scoring with its own sheets."""
        return None

    def can_skip(self) -> bool:
        """A lesson goes at its own pace (Space steps it on)."""
        return False

    def waiting_for_human(self) -> bool:
        return not self.queue.busy and not self.paused and self.tutorial.expects_move()

    def legal(self) -> list[Action]:
        if not self.waiting_for_human():
            return []
        hand = self.game.hand
        acts = list(hand.legal_actions())
        if hand.turn != 0:
            return acts
        extra: list[Action] = []
        if hand.phase in ("upcard", "draw"):
            extra = [DrawStock(), DrawDiscard()]
        elif hand.phase == "discard":  # knocks too when a knock is near: a wrong one is explained
            knocking = any(isinstance(a, Knock) for a in acts)
            extra = [
                a
                for c in hand.hands[0]
                for a in (Discard(c), Knock(c))
                if knocking or isinstance(a, Discard)
            ]
        elif hand.phase == "layoff":
            extra = [LayOff(c, i) for c in hand.hands[0] for i in range(len(hand.table_melds))]
        return acts + [a for a in extra if a not in acts]

    def submit(self, action: Action) -> bool:
        if not self.waiting_for_human():
            return False
        if self._practice_move(action):
            return super().submit(action)  # the practice hand: through the driver
        return self.tutorial.learner_move(action)

    def _practice_move(self, action: Action) -> bool:
        """Whether ``action`` is the learner's legal move in Play along's practice hand."""
        runner = self.tutorial.runner
        return (
            runner.seat_driven
            and runner.mode == PLAY
            and runner.step.practice
            and self.game.turn == 0
            and action in self.game.legal_actions()
        )

    def submit_many(self, actions: list[Action]) -> bool:
        done = False
        for action in actions:
            if not self.submit(action):
                break
            done = True
        return done

    def next_hand(self) -> bool:
        return False

    def show(self, events) -> None:
        """Animate events the runner applied (script moves, the learner's right moves)."""
        self.show_events(None, events)
        self._changed()


class TutorialInput(TableInput):
    """The table's input, plus clicks that answer a lesson's "click the card that…"."""

    def __init__(self, view: TutorialView, controller: TutorialController, hud: Hud) -> None:
        self.view = view
        super().__init__(view.base, view.scene, controller, hud)

    def click(self, node: CardNode) -> bool:
        if self.view.expects_pick():
            return self.view.pick(node)
        return super().click(node)

    def _waiting_prompt(self, view) -> str:
        return ""  # the narration panel says what is going on


class TutorialView(MouseButtons):
    """Plays one chapter on the table; ``on_done(next_chapter: bool)`` when the learner leaves,
    ``on_complete()`` when the chapter reaches its end (watched or played along)."""

    def __init__(
        self,
        app,
        chapter: Chapter,
        rules: RuleSet,
        mode: str = WATCH,
        on_done: Callable[[bool], None] | None = None,
        auto_advance: bool = True,
        opponent: str = "Robin",
        practice_player=None,
        on_complete: Callable[[], None] | None = None,
    ) -> None:
        self.app = app
        self.base = app
        self.scene = app.scene
        self.queue = app.queue
        self.on_done = on_done or (lambda _next: None)
        self.on_complete = on_complete or (lambda: None)  # the chapter reached its end
        self.auto_advance = auto_advance
        if practice_player is None:
            from ...players import computer_player

            player = computer_player("beginner")
            practice_player = player.choose
        self.runner = TutorialRunner(
            chapter,
            rules,
            mode,
            opponent=opponent,
            practice_player=practice_player,
            practice_hint=practice_hint,
            seat_driven=True,
        )
        self.ctl: TutorialController | None = None
        self.input: TutorialInput | None = None
        self.hud: Hud | None = None
        self.picker = Picker(app, self.scene.root)
        self.scene.frame_spreads(*SPREAD_FRAME)
        self.show_root = self.scene.root.attachNewNode("tutorial-show")
        self.show_root.setPos(*SHOW_POS)
        self.show_root.setHpr(*SHOW_HPR)
        self.show_root.setScale(SHOW_SCALE)
        self.show_nodes: list[CardNode] = []
        self.show_labels: list[NodePath] = []
        self.panel = NarrationPanel(app, self.back, self.next, lambda: self.on_done(False))
        self.pointer = Pointer(app, self.scene.root, self.panel)
        self.arrow = self.pointer.np
        camera = app.camera
        self._camera_goal = (camera.getPos(), camera.getQuat())  # where its move ends
        self.sheet_texts = [
            theme.text_line(app.a2dRightCenter, (x, -0.3), 0.045, (1, 1, 0.9, 1), align)
            for x, align in (
                (-0.78, TextNode.ALeft),
                (-0.3, TextNode.ARight),
                (-0.06, TextNode.ARight),
            )
        ]
        self.why = ""
        self._frame = self.runner.frame()
        self._auto_task = None
        self._keys = {"space": self.on_space, "backspace": self.back}
        self._load_table(instant=False)
        self.queue.on_idle.append(self._idle)
        self.render()

    # -- the state the input asks about ------------------------------------------------------
    def expects_move(self) -> bool:
        step = self.runner.step
        return self.runner.waiting and (
            step.practice or (step.expect is not None and step.expect.move is not None)
        )

    def expects_pick(self) -> bool:
        step = self.runner.step
        return (
            self.runner.waiting
            and not step.practice
            and step.expect is not None
            and bool(step.expect.pick)
            and not self.queue.busy
        )

    # -- moving through the chapter ------------------------------------------------------------
    def next(self) -> bool:
        """Next (button, Space): go on, unless the learner's move is awaited."""
        if self.runner.finished:
            self.on_done(True)
            return True
        if self.runner.waiting:
            self.panel.set_why("Your move: " + self.runner.prompt())
            return False
        self._finish_animations()
        self.why = ""
        events = self.runner.next()
        self._show(events)
        self.render()
        return True

    def goto(self, index: int) -> None:
        """Jump to a step of this chapter (the table rebuilt at once)."""
        self.why = ""
        self.runner.goto(index)
        self._load_table(instant=True)
        self.render()

    def back(self) -> bool:
        """Back: the previous step, the table rebuilt exactly as it was."""
        self.why = ""
        self.runner.back()
        self._load_table(instant=True)
        self.render()
        return True

    def on_space(self) -> None:
        if self.input is not None and self.runner.waiting and self.input.selected is not None:
            self.input.do("confirm")
        else:
            self.next()

    def practice_moved(self) -> None:
        """A move of the practice hand went through the driver: the next step once the hand
        is over, and the panel redrawn (the prompt is the next move's hint)."""
        self.why = ""
        self._show(self.runner.practice_moved())
        self.render()

    def learner_move(self, move: Action | Card) -> bool:
        """A move from the table's input: right ones are played, wrong ones explained."""
        outcome = self.runner.act(move)
        if not outcome.ok:
            self.why = outcome.why
            self.panel.set_why(outcome.why)
            return False
        self.why = ""
        self._show(list(outcome.events))
        self.render()
        return True

    def pick(self, node) -> bool:
        if getattr(node, "card", None) is None:
            return False
        return self.learner_move(node.card)

    def _show(self, events) -> None:
        if self.ctl is None:
            return
        speed = self.app.speed
        fast = len(events) > FAST_FORWARD and speed > 0
        if fast:  # a scripted fast-forward (many moves at once) plays four times as fast
            self.queue.call(lambda: setattr(self.queue, "speed", speed * 4))
        self.ctl.show(events)
        if fast:
            self.queue.call(lambda: setattr(self.queue, "speed", speed))

    def _finish_animations(self) -> None:
        """Jump every animation to its end, at the speed the settings ask for afterwards."""
        self.queue.finish_all()
        self.queue.speed = self.app.speed

    # -- the table ---------------------------------------------------------------------------
    def _load_table(self, instant: bool) -> None:
        """Put the runner's game on the table (animating the deal unless ``instant``)."""
        self._drop_table()
        speed = self.app.speed
        if instant:
            self._finish_animations()
            self.queue.speed = 0
        try:
            game = self.runner.table.game
            if game is not None:
                self.ctl = TutorialController(self, game)
                self.hud = Hud(
                    self.app,
                    self._hud_action,
                    lambda: self.on_done(False),
                    menu_label="Chapters (Esc)",
                    portraits=False,  # the narration panel stands where they would
                )
                self.input = TutorialInput(self, self.ctl, self.hud)
                self.ctl.on_message.append(self.hud.set_message)
                self.ctl.on_change.append(self._refocus)
            else:  # a lesson with example cards only: the deck waits, gathered
                self.scene.show_event(HandStarted(0, 0, 52))
        finally:
            self.queue.speed = speed
        for key, fn in self._keys.items():
            self.base.accept(key, fn)
        if self.input is None:  # no game: clicks only answer "click the card that…"
            self.base.accept("mouse1", self._mouse_down)
            self.base.accept("mouse1-up", self._mouse_up)
        self._press = None

    def _drop_table(self) -> None:
        if self.input is not None:
            self.input.destroy()
        if self.ctl is not None:
            self.ctl.destroy()
        if self.hud is not None:
            self.hud.destroy()
        self.ctl = self.input = self.hud = None
        for key in (*self._keys, "mouse1", "mouse1-up"):
            self.base.ignore(key)

    def _hud_action(self, name: str) -> None:
        self.scene.play_sound("click")
        if self.input is not None:
            self.input.do(name)

    # clicks in lessons without a hand (press and release on the same card = a click)
    def press(self, mpos) -> None:
        if self.input is not None:
            self.input.press(mpos)
            return
        self._press = self.picker.pick(mpos)

    def release(self, mpos) -> None:
        if self.input is not None:
            self.input.release(mpos)
            return
        node, self._press = self._press, None
        if node is not None and self.picker.pick(mpos) is node and self.expects_pick():
            self.pick(node)

    # -- drawing a step ------------------------------------------------------------------------
    def render(self) -> None:
        """Narration, camera, example cards, focus and score sheet for the current step."""
        frame = self._frame = self.runner.frame()
        mode = "Play along" if self.runner.mode == PLAY else "Watch"
        title = (
            f"Chapter {frame.chapter}: {frame.title}\nStep {frame.index + 1} of "
            f"{frame.count} - {mode}"
        )
        prompt = frame.prompt
        if frame.finished:
            prompt = "Chapter complete! Next goes on to the next chapter."
            self.on_complete()
        self.panel.set(title, frame.text, prompt, self.why)
        self.panel.buttons["next"]["text"] = suitify(
            "Next chapter"
            if frame.finished
            else ("Next (Space)" if not frame.waiting else "Your move")
        )
        self._build_show(frame)
        self._move_camera(frame.camera)
        if self.input is not None:
            self.input.refresh()  # buttons and glows for the new state (also when it's over)
        self._refocus()
        self._render_sheet()
        self._schedule_auto()

    def _build_show(self, frame) -> None:
        for node in self.show_nodes:
            node.np.removeNode()
        for label in self.show_labels:
            label.removeNode()
        self.show_nodes, self.show_labels = [], []
        rows = frame.show
        for r, row in enumerate(rows):
            sizes = [len(g) for g in row]
            xs = layout.group_xs(sizes, SHOW_STEP, SHOW_GAP)
            y = (len(rows) - 1) / 2 * SHOW_ROW - r * SHOW_ROW
            cards = [c for g in row for c in g]
            for i, (x, c) in enumerate(zip(xs, cards)):
                node = self.scene.factory.make(self.show_root, 100 + len(self.show_nodes))
                node.set_face(c)
                node.zone = "show"
                node.np.setPos(x, y, i * 0.03)
                self.show_nodes.append(node)
            if r < len(frame.labels):
                text = TextNode(f"show-label-{r}")
                text.setText(suitify(frame.labels[r]))
                text.setAlign(TextNode.ACenter)
                text.setTextColor(1, 0.95, 0.8, 1)
                text.setShadow(0.05, 0.05)
                text.setShadowColor(0, 0, 0, 1)
                text.setCardColor(*LABEL_CARD)  # readable where it lies over the table's cards
                text.setCardAsMargin(0.3, 0.3, 0.15, 0.15)
                text.setCardDecal(True)
                np = self.show_root.attachNewNode(text)
                np.setTransparency(TransparencyAttrib.MAlpha)
                np.setPos(0, y + CARD_H / 2 + 1.4, 0.2)
                np.setHpr(0, -90, 0)
                np.setScale(1.6)
                np.setLightOff(1)
                np.setBin("fixed", 5)
                np.setDepthTest(False)
                np.setDepthWrite(False)
                self.show_labels.append(np)

    def _move_camera(self, name: str) -> None:
        if name in CUTS_THE_HAND and (self.runner.mode == PLAY or self._talks_of_the_hand()):
            name = "table"  # the learner's hand stays in sight: playing along, or talked of
        pos, look = CAMERA_POSES.get(name, CAMERA_POSES["table"])
        cam = self.base.camera
        start_pos, start_quat = cam.getPos(), cam.getQuat()
        cam.setPos(*pos)
        cam.lookAt(*look)
        end_quat = cam.getQuat()
        self._camera_goal = (Point3(*pos), Quat(end_quat))
        if self.queue.speed <= 0:
            return
        cam.setPos(start_pos)
        cam.setQuat(start_quat)
        LerpPosQuatInterval(
            cam, self.queue.seconds(0.8), Point3(*pos), quat=end_quat, blendType="easeInOut"
        ).start()

    def _talks_of_the_hand(self) -> bool:
        """Whether the step points at cards of the learner's hand (or at the hand)."""
        frame = self._frame
        wanted = set(frame.focus_cards)
        return "hand" in frame.focus_places or any(
            n.zone == "hand0" and n.card in wanted for n in self.scene.cards
        )

    def _focus_targets(self) -> tuple[list[CardNode], list[NodePath]]:
        frame = self._frame
        wanted = set(frame.focus_cards)
        nodes = [n for n in self.show_nodes if n.card in wanted]
        shown = {n.card for n in nodes}
        nodes += [
            n
            for n in self.scene.cards
            if n.card in wanted and n.card not in shown and n.zone != "stock"
        ]
        scene = self.scene
        melds = scene.anchor_melds[scene.knocker if scene.knocker is not None else 0]
        anchors = {
            "stock": scene.anchor_stock,
            "pile": scene.anchor_pile,
            "hand": scene.anchor_hand,
            "opponent": scene.anchor_opp,
            "melds": melds,
            "show": self.show_root,
        }
        places = [anchors[p] for p in frame.focus_places if p in anchors]
        return nodes, places

    def _refocus(self) -> None:
        """Glow the cards the narration talks about; point the arrow at the first target."""
        nodes, places = self._focus_targets()
        for n in nodes:
            n.set_glow(True, FOCUS_GLOW)
        target = nodes[0].np if nodes else (places[0] if places else None)
        if target is None or self.queue.busy:
            self.pointer.hide()
            return
        above = CARD_H * 0.55  # just over the top edge of a card (or of the top row shown)
        if target is self.show_root:
            above += (len(self._frame.show) - 1) / 2 * SHOW_ROW + 1.5
        where = self.scene.root.getRelativePoint(target, Point3(0, above, 0))
        spot = Point3(where.x, where.y, where.z + 1.5)
        self.pointer.point_at(spot, self._camera_goal, animate=self.queue.speed > 0)

    def _render_sheet(self) -> None:
        sheet = self.runner.table.sheet
        columns: list[list[str]] = [[], [], []]
        if sheet is not None:
            rows = [("Score sheet", "You", self.runner.opponent)]
            for i, (seat, points) in enumerate(sheet.hands, 1):
                rows.append((f"Hand {i}", *(str(points) if seat == s else "-" for s in (0, 1))))
            run = sheet.running()
            rows.append(("Hand points", str(run[0]), str(run[1])))
            if sheet.over:
                table = sheet.breakdown()
                for key, label in (
                    ("game_bonus", "Game bonus"),
                    ("boxes", "Boxes"),
                    ("shutout", "Shutout"),
                    ("total", "Total"),
                ):
                    if key == "shutout" and not table[0][key] and not table[1][key]:
                        continue
                    rows.append((label, str(table[0][key]), str(table[1][key])))
            columns = [list(col) for col in zip(*rows)]
        for text, col in zip(self.sheet_texts, columns):
            text.setText("\n".join(col))

    # -- Watch mode pacing ------------------------------------------------------------------
    def _schedule_auto(self) -> None:
        if self._auto_task is not None:
            self.base.taskMgr.remove(self._auto_task)
            self._auto_task = None
        if (
            not self.auto_advance
            or self.runner.mode != WATCH
            or self.runner.finished
            or self.runner.step.practice
        ):
            if (
                self.auto_advance
                and self.runner.step.practice
                and not self.runner.finished
                and self.runner.mode == WATCH
            ):
                self._auto_task = self.base.taskMgr.doMethodLater(
                    1.2, self._auto_next, "tutorial-auto-next"
                )
            return
        words = len(self._frame.text.split())
        wait = READ_SECONDS[0] + READ_SECONDS[1] * words
        self._auto_task = self.base.taskMgr.doMethodLater(
            wait, self._auto_next, "tutorial-auto-next"
        )

    def _auto_next(self, task=None):
        self._auto_task = None
        if self.queue.busy:  # let the animation finish first, then give time to read
            self._auto_task = self.base.taskMgr.doMethodLater(
                0.5, self._auto_next, "tutorial-auto-next"
            )
            return None
        if not self.runner.finished and not self.runner.waiting:
            self.next()
        return None

    def _idle(self) -> None:
        self._refocus()

    def destroy(self) -> None:
        if self._auto_task is not None:
            self.base.taskMgr.remove(self._auto_task)
        if self._idle in self.queue.on_idle:
            self.queue.on_idle.remove(self._idle)
        self._finish_animations()
        self._drop_table()
        for node in self.show_nodes:
            node.np.removeNode()
        self.show_root.removeNode()
        self.scene.frame_spreads()
        self.pointer.destroy()
        self.picker.ray_np.removeNode()
        self.panel.destroy()
        for text in self.sheet_texts:
            text.destroy()
        for n in self.scene.cards:
            n.set_glow(False)
        self.scene.place_camera()


class TutorialDriver(InputDriver):
    """Acts out tutorial moves through the real input path (tests, screenshots, demos)."""

    def __init__(self, app, view: TutorialView) -> None:
        super().__init__(app)
        self.view = view

    @property
    def session(self):
        return self.view  # has .input, .ctl (as controller), .hud like a game session

    def perform(self, move: Action | Card) -> None:
        """Click, key or button for ``move`` as a learner would."""
        view = self.view
        if isinstance(move, Card):
            node = next((n for n in view.show_nodes if n.card == move), None) or next(
                n for n in self.app.scene.cards if n.card == move and n.zone != "stock"
            )
            point = view.picker.visible_point(node)
            if point is None:
                raise RuntimeError(f"{move} is not visible on the table")
            view.press(point)
            view.release(point)
        else:
            self.act(move)
        self.app.taskMgr.step()

    def discard(self, card) -> None:
        """Select the card, then click the pile (a refused discard is the lesson's to say)."""
        self.click_card(card)
        self.click_node_point(self.view.input.pile_point())

    def knock(self, card) -> None:
        inp = self.view.input
        if inp.selected not in (None, card):  # left selected by a refused discard:
            self.click_card(card)  # Knock would lay that card down, so pick this one
        self.button("knock")
        if inp.knock_mode:
            self.click_card(card)

    def lay_off(self, action: LayOff) -> None:
        self.click_card(action.card)
        if self.view.input.selected == action.card:  # it could go on several melds: choose
            self.choose_meld(action.meld)


__all__ = [
    "TutorialController",
    "TutorialDriver",
    "TutorialInput",
    "TutorialView",
    "practice_hint",
]
