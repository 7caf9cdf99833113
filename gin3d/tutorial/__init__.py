"""The tutorial: lessons as data (``chapters/*.json``) and the runner that plays them.

No Panda3D here: the runner drives a real engine ``Hand`` through each chapter's fixed deal
and script, fills the narration from the active rules and checks every claim it makes; the
scene (``gin3d/scene/scripted/tutorial_view.py``) only animates and draws what the runner says.
"""

from .expressions import ExpressionError, evaluate, parse_expression
from .lesson import CAMERAS, Chapter, Deal, Expect, LessonError, Step, load_chapter, load_chapters
from .narration import fill, narrate
from .practice import Hint, greedy_player, hint
from .runner import PLAY, WATCH, ClaimResult, Frame, Outcome, TutorialRunner, explain_illegal
from .table import Table, lesson_rules

__all__ = [
    "CAMERAS",
    "PLAY",
    "WATCH",
    "Chapter",
    "ClaimResult",
    "Deal",
    "Expect",
    "ExpressionError",
    "Frame",
    "Hint",
    "LessonError",
    "Outcome",
    "Step",
    "Table",
    "TutorialRunner",
    "evaluate",
    "explain_illegal",
    "fill",
    "greedy_player",
    "hint",
    "lesson_rules",
    "load_chapter",
    "load_chapters",
    "narrate",
    "parse_expression",
]
