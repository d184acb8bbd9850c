"""Local bot engines: replies per second and latency percentiles, AIML load time and memory.

    .venv/bin/python -m bench.bots [--replies 2000] [--utterances 10000] [--seed 1]

Pure Python (the engines import no Django): Simple, ELIZA, AIML (the Free A.L.I.C.E. set) and the
learner over --utterances stored question-answer pairs in memory (rapidfuzz, the embedded default's
matcher; PostgreSQL's trigram matcher is measured by the test suite, not here). Each engine answers
--replies messages drawn from a fixed pool, in conversations of 10 turns (history included, as in a
real conversation), one at a time in this process.

AIML: load time of the kernel and the process's resident memory (VmRSS) before and after loading.

A summary goes to stdout; the LAST line is one JSON object:
{"engines": {"<name>": {"replies_per_s", "p50_ms", "p99_ms", "max_ms"}, ...},
 "aiml_load_s", "aiml_categories", "aiml_rss_mb", "rss_before_aiml_mb", "learner_utterances", ...}
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import time

from bench.results import add_options, record_if_asked
from bots.base import INTERROGATOR, WITNESS, ReplyContext, Turn
from bots.registry import get_engine

FAST = {"think_s": 0, "per_char_s": 0, "jitter": 0}
QUESTIONS = [
    "Hello, how are you?",
    "What is your name?",
    "Are you a human or a computer?",
    "Where do you live?",
    "What did you have for breakfast?",
    "What is 2 plus 2?",
    "Do you like music?",
    "What's the weather like?",
    "Why do you say that?",
    "I feel a bit tired today.",
    "Tell me about your family.",
    "What do you do for work?",
    "Have you ever been to Paris?",
    "What's your favourite film?",
    "Can you tell me a joke?",
    "Are you a robot?",
]
SUBJECTS = ["you", "your sister", "your boss", "the neighbours", "your friends", "people here", "your dog"]
VERBS = ["like", "hate", "eat", "watch", "play", "remember", "think about", "visit", "cook", "read"]
OBJECTS = [
    "pizza",
    "football",
    "the news",
    "old films",
    "the sea",
    "rainy days",
    "jazz",
    "cats",
    "trains",
    "chess",
    "mountains",
    "coffee",
    "poetry",
    "video games",
    "gardening",
    "the city",
    "history",
    "maths",
]
ANSWERS = [
    "yeah, all the time",
    "not really tbh",
    "sometimes, why?",
    "haha no",
    "only on weekends",
    "I used to",
    "no idea",
    "depends on the day",
    "absolutely",
    "never tried it",
]


def rss_mb() -> float:
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def corpus(n: int, rng: random.Random):
    from bots.engines.learner import MemoryCorpus, Pair

    pairs, previous = [], ""
    for i in range(n):
        prompt = f"do {rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)}?"
        if rng.random() < 0.2:
            prompt = rng.choice(QUESTIONS).lower()
        pairs.append(Pair(prompt, rng.choice(ANSWERS), previous if rng.random() < 0.7 else "", i))
        previous = prompt
    return MemoryCorpus(pairs)


def run(engine, replies: int, rng: random.Random) -> dict:
    latencies, history, conversation = [], [], 0
    start = time.perf_counter()
    for n in range(replies):
        if n % 10 == 0:
            conversation, history = conversation + 1, []
        message = rng.choice(QUESTIONS)
        context = ReplyContext(conversation_key=f"bench-{conversation}", history=tuple(history), message=message)
        t0 = time.perf_counter()
        text = engine.reply(context)
        latencies.append((time.perf_counter() - t0) * 1000)
        history += [Turn(INTERROGATOR, message), Turn(WITNESS, text)]
    wall = time.perf_counter() - start
    latencies.sort()
    return {
        "replies_per_s": round(replies / wall, 1),
        "p50_ms": round(statistics.median(latencies), 3),
        "p99_ms": round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))], 3),
        "max_ms": round(latencies[-1], 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replies", type=int, default=2000)
    parser.add_argument("--utterances", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    args = add_options(parser).parse_args()
    rng = random.Random(args.seed)
    result: dict = {
        "replies": args.replies,
        "learner_utterances": args.utterances,
        "python": platform.python_version(),
        "engines": {},
    }

    result["rss_before_aiml_mb"] = round(rss_mb(), 1)
    from bots.engines import aiml

    t0 = time.perf_counter()
    kernel = aiml.get_kernel()
    result["aiml_load_s"] = round(time.perf_counter() - t0, 2)
    result["aiml_categories"] = kernel.numCategories()
    result["aiml_rss_mb"] = round(rss_mb() - result["rss_before_aiml_mb"], 1)

    learner = get_engine("learner", {**FAST, "fallback": "stock"})
    t0 = time.perf_counter()
    learner.corpus = corpus(args.utterances, rng)
    learner.corpus.candidates("warm up", "", context_weight=0.3, limit=1)
    result["learner_corpus_build_s"] = round(time.perf_counter() - t0, 3)

    engines = {
        "simple": get_engine("simple", FAST),
        "eliza": get_engine("eliza", FAST),
        "aiml": get_engine("aiml", FAST),
        "learner": learner,
    }
    for name, engine in engines.items():
        result["engines"][name] = stats = run(engine, args.replies, random.Random(args.seed))
        print(
            f"{name:8s} {stats['replies_per_s']:>10.1f} replies/s  p50 {stats['p50_ms']:.3f} ms  "
            f"p99 {stats['p99_ms']:.3f} ms  max {stats['max_ms']:.3f} ms"
        )
    print(
        f"AIML: {result['aiml_categories']} categories loaded in {result['aiml_load_s']} s, "
        f"+{result['aiml_rss_mb']} MB resident (process {rss_mb():.0f} MB, pid {os.getpid()})"
    )
    print(json.dumps(result))
    record_if_asked("bots", result, args)


if __name__ == "__main__":
    main()
