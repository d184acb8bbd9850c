"""The platform's roles, as Django groups with permissions.

A person may hold several roles. Organisers work in the admin; judges, confederates and bettors in
the browser; entrants through the REST API.
"""

ORGANISER = "organiser"
JUDGE = "judge"
CONFEDERATE = "confederate"
ENTRANT = "entrant"
BETTOR = "bettor"

ALL = (ORGANISER, JUDGE, CONFEDERATE, ENTRANT, BETTOR)

# The apps of the formats an organiser runs in the admin: the organiser group carries every permission of
# their models (contests, wager sessions, studies, markets, Tables games, Λ* experiments, LPP bridges).
ORGANISER_APPS = ("loebner", "wager", "studies", "markets", "tables", "lambdastar", "lpp")

# model permissions ("app_label.codename") each role's group carries (the organiser's, beside ORGANISER_APPS')
PERMISSIONS = {
    ORGANISER: [
        f"arena.{action}_{model}"
        for model in ("entry", "interrogation", "conversation", "message", "verdict")
        for action in ("add", "change", "view", "delete")
    ]
    + ["arena.publish_interrogation", "arena.monitor_interrogation"],
    JUDGE: ["arena.add_verdict"],
    CONFEDERATE: [],
    ENTRANT: ["arena.add_entry", "arena.view_entry"],
    BETTOR: [],
}


def has_role(user, role: str) -> bool:
    if not user.is_authenticated:
        return False
    if role == ORGANISER and user.is_superuser:
        return True
    return user.groups.filter(name=role).exists()


def is_organiser(user) -> bool:
    return has_role(user, ORGANISER)


def organises(user) -> bool:
    """An organiser, or a staff member of the admin: who may see organisers' pages and unpublished results."""
    return user.is_authenticated and (user.is_staff or is_organiser(user))
