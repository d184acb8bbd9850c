"""Creating a study from its configuration (the admin's form and `manage.py study load` alike)."""

import json

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify

from arena.models import Entry
from arena.services.entries import entry_settings_clean
from core.errors import Closed, InvalidInput
from studies.models import Condition, Study
from studies.rules.design import DesignError, design_read


def study_config_read(*, text: str) -> dict:
    """The JSON object of a configuration file's text; InvalidInput says where it is broken."""
    try:
        config = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInput(
            f"The configuration is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        ) from None
    if not isinstance(config, dict):
        raise InvalidInput("The configuration must be a JSON object.")
    return config


def _settings_clean(witness) -> dict:
    """The witness's engine settings as its arena entry will hold them: any bots engine, or pull mode
    (the entrant's program answers through the API, held back by the typing model like every machine)."""
    try:
        return entry_settings_clean(engine=witness.engine, settings=witness.settings)
    except ValidationError as exc:
        detail = "; ".join(f"{k}: {' '.join(v)}" for k, v in exc.message_dict.items())
        raise InvalidInput(f"witness {witness.name!r}: {detail}") from None


def study_config_validate(*, config: dict):
    """(the design, each witness's cleaned settings) of a configuration, or InvalidInput naming the key:
    everything `study_load` checks, without creating anything (the admin's form calls it)."""
    try:
        design = design_read(config)
    except DesignError as exc:
        raise InvalidInput(str(exc)) from None
    return design, [_settings_clean(witness) for witness in design.witnesses]


def study_load(*, config: dict, slug: str = "", status: str = Study.Status.DRAFT, owner=None) -> Study:
    """A new study of `config` (validated: InvalidInput names the key), with an arena entry per AI witness."""
    design, cleaned = study_config_validate(config=config)
    slug = slugify(slug or config.get("slug") or design.title)[:50] or "study"
    base, n = slug, 2
    while Study.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    with transaction.atomic():
        study = Study.objects.create(
            slug=slug,
            title=design.title,
            status=status,
            format=design.format,
            minutes=design.minutes,
            max_message_chars=design.max_message_chars,
            strict_alternation=design.turn_taking == "strict",
            human_witness_share=design.human_witness_share,
            games_per_participant=design.games_per_participant,
            games_per_day=design.games_per_day,
            human_wait_s=design.human_wait_s,
            seed=design.seed,
            config=design.as_config(),
            owner=owner,
        )
        for index, (witness, settings) in enumerate(zip(design.witnesses, cleaned)):
            entry = Entry.objects.create(
                display_name=f"{witness.name} · {study.slug}"[:100], engine=witness.engine, settings=settings
            )
            Condition.objects.create(
                study=study,
                index=index,
                name=witness.name,
                label=witness.label,
                persona=witness.persona,
                entry=entry,
            )
    return study


def study_status_set(*, study_id: int, status: str) -> Study:
    if status not in Study.Status.values:
        raise InvalidInput(f"status must be one of {', '.join(Study.Status.values)}.")
    Study.objects.filter(pk=study_id).update(status=status)
    return Study.objects.get(pk=study_id)


def study_unopen(*, study_id: int) -> Study:
    """Open → draft again (off /play/), while no one has taken part: a study with participants keeps its
    record, and is closed instead."""
    with transaction.atomic():
        study = Study.objects.select_for_update().get(pk=study_id)
        if study.status != Study.Status.OPEN:
            raise Closed(f"The study is {study.get_status_display()}, not open.")
        if study.participants.exists():
            raise Closed("People have taken part: close the study instead.")
        study.status = Study.Status.DRAFT
        study.save(update_fields=["status"])
    return study
