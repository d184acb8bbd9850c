"""The Loebner app's data: contests and their entries, participants (labels J1…, E1…, C1…), qualifying,
rounds whose meetings are ordinary arena interrogations, judgments and ranks."""

from tournaments.loebner.models.contests import Contest, ContestEntry, Participant, PrizeRow  # noqa: F401  the app's models, where Django looks for them
from tournaments.loebner.models.qualifying import (  # noqa: F401  the app's models, where Django looks for them
    AudienceVote,
    QualifyingAnswer,
    QualifyingSubject,
    Question,
    QuestionSet,
)
from tournaments.loebner.models.rounds import JudgeRank, Judgment, Meeting, Round  # noqa: F401  the app's models, where Django looks for them
