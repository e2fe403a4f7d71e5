"""Analysis of a match: which decisions cost points, judged from what each seat knew
(issue 33; docs/analysis.md). Engine-side: no Flask, Celery or SQL."""

from .evaluator import (
    DEFAULT_PLAYOUTS,
    DEFAULT_SAMPLES,
    ENGINE_PLAYOUTS,
    AnswerValue,
    EnginePlayout,
    Evaluation,
    Playout,
    evaluate_pass,
    evaluate_play,
)
from .review import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    AnalysisError,
    DecisionAnalysis,
    MatchAnalysis,
    Settings,
    analyse,
    mark_of,
)

__all__ = [
    "BLUNDER",
    "DEFAULT_PLAYOUTS",
    "DEFAULT_SAMPLES",
    "ENGINE_PLAYOUTS",
    "INACCURACY",
    "MISTAKE",
    "AnalysisError",
    "AnswerValue",
    "DecisionAnalysis",
    "EnginePlayout",
    "Evaluation",
    "MatchAnalysis",
    "Playout",
    "Settings",
    "analyse",
    "evaluate_pass",
    "evaluate_play",
    "mark_of",
]
