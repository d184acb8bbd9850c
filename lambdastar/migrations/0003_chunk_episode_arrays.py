"""Per-episode results move into their chunk row as two arrays (scores, complexities); the
episode rows of experiments already stored are copied there first, so they stay readable and
exportable, then the episode table goes. Reversible: the rows are rebuilt from the arrays."""

from itertools import groupby

from django.db import migrations, models

BATCH = 500


def episode_rows_to_arrays(apps, schema_editor):
    ChunkResult = apps.get_model("lambdastar", "ChunkResult")
    EpisodeResult = apps.get_model("lambdastar", "EpisodeResult")
    rows = EpisodeResult.objects.order_by("chunk_id", "episode").values_list("chunk_id", "score", "complexity")
    batch = []
    for chunk_id, episodes in groupby(rows.iterator(chunk_size=5000), key=lambda row: row[0]):
        episodes = list(episodes)
        complexities = [k for _, _, k in episodes]
        batch.append(
            ChunkResult(
                pk=chunk_id,
                scores=[s for _, s, _ in episodes],
                complexities=None if all(k is None for k in complexities) else complexities,
            )
        )
        if len(batch) >= BATCH:
            ChunkResult.objects.bulk_update(batch, ["scores", "complexities"])
            batch = []
    ChunkResult.objects.bulk_update(batch, ["scores", "complexities"])


def arrays_to_episode_rows(apps, schema_editor):
    ChunkResult = apps.get_model("lambdastar", "ChunkResult")
    EpisodeResult = apps.get_model("lambdastar", "EpisodeResult")
    for chunk in ChunkResult.objects.iterator(chunk_size=100):
        complexities = chunk.complexities or [None] * len(chunk.scores)
        EpisodeResult.objects.bulk_create(
            [
                EpisodeResult(
                    chunk_id=chunk.pk,
                    run_id=chunk.run_id,
                    agent_type=chunk.agent_type,
                    episode=chunk.first_episode + i,
                    score=score,
                    complexity=k,
                )
                for i, (score, k) in enumerate(zip(chunk.scores, complexities))
            ],
            batch_size=5000,
        )


class Migration(migrations.Migration):
    dependencies = [
        ("lambdastar", "0002_run_chunk_episodes"),
    ]

    operations = [
        migrations.AddField(
            model_name="chunkresult",
            name="scores",
            field=models.JSONField(default=list, help_text="Group score of each episode, first..stop-1 in order."),
        ),
        migrations.AddField(
            model_name="chunkresult",
            name="complexities",
            field=models.JSONField(
                blank=True, null=True, help_text="K(μ) of each episode's patterns (paper rules), else null."
            ),
        ),
        migrations.RunPython(episode_rows_to_arrays, arrays_to_episode_rows),
        migrations.DeleteModel(name="EpisodeResult"),
    ]
