"""Run a duplicate-deal tournament: plan the games, play the missing ones on a backend, stream each
record to ``games.jsonl`` as it ends, then rate, summarise and write the report.

Backends: ``local`` (in this process with one worker, else a process pool) and ``ray`` (the
optional ``ray`` extra; connects to ``RAY_ADDRESS`` when set, else starts a local instance).
Results depend only on the arguments, never on the backend, the worker count or the order in
which games finish.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

from rummyai.arena.batch_ratings import RATING_METHODS, RatingMethod, fit_ratings
from rummyai.arena.duplicate import GameTask, Seating, planned_games, set_tasks
from rummyai.arena.play import GameFn, GameRecord, play_game, play_recorded_game
from rummyai.arena.report import Summary, write_report
from rummyai.arena.stats import agent_stats, pairwise
from rummyai.arena.store import GAMES_FILE, ResultWriter, check_manifest, load_records, record_key
from rummyai.arena.version import CodeVersion, code_version
from rummyai.engine.game import check_max_turns, check_players, check_whole
from rummyai.errors import RummyError
from rummyai.variants import Variant, get_variant

Backend = Literal["local", "ray"]
FORMAT_VERSION = 1

#: Above this many duplicate sets a run is refused: it could never finish, and is surely a typo.
MAX_SETS = 10**9


def run_tournament(
    variant: str | Variant,
    agents: Sequence[str],
    games: int,
    players: int,
    seed: int = 0,
    out_dir: str | Path = "tournament",
    *,
    workers: int = 1,
    backend: Backend = "local",
    options: Sequence[str] | Mapping[str, Any] | None = (),
    max_turns: int | None = None,
    seating: Seating = "permutations",
    progress: bool = True,
    report: bool = True,
    resamples: int = 2000,
    game_fn: GameFn | None = None,
    record_moves: bool = False,
    ratings: RatingMethod = "bradley-terry",
    version: CodeVersion | None = None,
    allow_mixed_versions: bool = False,
    on_record: Callable[[GameRecord], object] | None = None,
) -> Summary:
    """Play `games` duplicate sets of `variant` among `agents` (spec strings) at `players` seats.

    Finished games already in ``out_dir/games.jsonl`` are kept and not replayed, so rerunning a
    killed tournament with the same arguments completes it; a larger `games` extends it. Every
    record carries the code `version` (default: the running code's); resuming with games of
    another version is refused unless `allow_mixed_versions`. The plan of games is streamed, never
    built whole. `game_fn` replaces the engine game (tests use a cheap synthetic game);
    `record_moves` keeps every move in the game records (for `rummyai serve --runs`' replays);
    `on_record` hears every newly written record.
    """
    if isinstance(agents, Iterator):  # read once: a generator checked below would be spent
        agents = tuple(agents)
    if options is None or isinstance(options, Mapping):  # as the other entry points take them
        options = sorted(get_variant(variant, options or None).options)
        if isinstance(variant, Variant):
            variant = variant.id  # its options are in the list now
    for name, value in (("agents", agents), ("options", options)):
        if isinstance(value, str) or not isinstance(value, Iterable):
            raise RummyError(f"{name} must be a list of strings or a mapping, got {value!r}")
    if isinstance(variant, Variant):  # a variant object stands for its id and options
        options = (*sorted(variant.options), *options)
        variant = variant.id
    for agent in agents:
        if not isinstance(agent, str):
            raise RummyError(
                "a tournament's agents are names or specs such as 'greedy' or 'mcts:worlds=8' (each "
                f"game builds its own, in any worker process), got an instance of {type(agent).__name__}"
            )
    agents = tuple(agents)
    options = tuple(options)
    _check_arguments(variant, agents, games, players, seed, workers, backend, options, max_turns, game_fn)
    if ratings not in RATING_METHODS:  # before any game, not after the last
        raise RummyError(f"unknown rating method {ratings!r} (known: {', '.join(RATING_METHODS)})")
    rules = get_variant(variant, list(options))
    out = output_folder(out_dir)
    manifest: dict[str, Any] = {
        "format": FORMAT_VERSION,
        "variant": variant,
        "options": list(options),
        "agents": list(agents),
        "players": players,
        "games": games,
        "seed": seed,
        "max_turns": max_turns,
        "seating": seating,
        "low_score_wins": rules.low_score_wins,
    }
    stamp = (version or code_version()).as_dict()
    path = out / GAMES_FILE
    stored = load_records(path)
    check_manifest(out, manifest)

    def tasks_of(set_index: int) -> list[GameTask]:
        return set_tasks(
            set_index,
            agents=agents,
            players=players,
            seed=seed,
            variant=variant,
            options=options,
            max_turns=max_turns,
            mode=seating,
        )

    records = planned_records(stored, games, tasks_of, path)
    done = {record_key(r) for r in records}
    todo = (task for s in range(games) for task in tasks_of(s) if task.key not in done)
    total = planned_games(agents, players, games, seating)
    if not allow_mixed_versions and len(done) < total:  # games to add: never to another version's
        check_versions(stored, stamp, path)
    if record_moves and len(done) < total:
        bare = sum(1 for r in records if "moves" not in r)
        if bare:
            raise RummyError(
                f"{path} holds {bare} games recorded without their moves, which replays need "
                "(finish the run without --record-moves, or use another folder)"
            )
    play = game_fn or (play_recorded_game if record_moves else play_game)
    with ResultWriter(path) as writer, _progress(total, len(done), variant, progress) as bar:
        for record in _execute(todo, play, workers, backend):
            record["code"] = stamp
            writer.append(record)
            records.append(record)
            if on_record is not None:
                on_record(record)
            bar(1)
    records.sort(key=record_key)
    summary = summarise(records, manifest, resamples=resamples, seed=seed, ratings=ratings)
    summary = replace(summary, record_moves=record_moves, resumed=len(done))
    if report:
        write_report(summary, out)
    return summary


def output_folder(out_dir: str | Path) -> Path:
    """The results folder, created if missing; a clear error when it is a file or cannot be made."""
    if not isinstance(out_dir, str | os.PathLike) or not str(out_dir).strip():
        raise RummyError(f"the output folder must be a path, got {out_dir!r}")
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise RummyError(f"--out {out} is a file, not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise RummyError(f"cannot create the output folder {out}: {error.strerror or error}") from None
    return out


def version_label(stamp: object) -> str:
    """A record's code version as one string (``unversioned`` for records written without one)."""
    if not isinstance(stamp, dict):
        return "unversioned"
    return CodeVersion.from_dict(stamp).label


def check_versions(records: Sequence[GameRecord], stamp: dict[str, Any], path: Path) -> None:
    """Refuse to add games of this code version to stored games of another one."""
    mine = version_label(stamp)
    others = sorted({version_label(r.get("code")) for r in records} - {mine})
    if others:
        raise RummyError(
            f"{path} holds games played with code {', '.join(others)}; this code is {mine} "
            "(finish the run with that code, use another folder, or pass --allow-mixed-versions)"
        )


def planned_records(
    records: Sequence[GameRecord], sets: int, tasks_of: Callable[[int], list[GameTask]], path: Path
) -> list[GameRecord]:
    """The stored records of planned games; an error if one was played with other seats or another deal.

    Records past the planned sets (a run asking for fewer sets than an earlier one) are left aside.
    A record whose seats or deal differ from its planned game comes from another tournament (a
    copied or hand-edited ``games.jsonl``): counting it would mix two tournaments' results.
    """
    cache: dict[int, dict[tuple[int, int], GameTask]] = {}
    kept = []
    for record in records:
        set_index = record_key(record)[0]
        if not 0 <= set_index < sets:
            continue
        if set_index not in cache:
            cache[set_index] = {task.key: task for task in tasks_of(set_index)}
        task = cache[set_index].get(record_key(record))
        if task is None:
            continue
        if list(record["seats"]) != list(task.seats) or int(record["match_seed"]) != task.match_seed:
            raise RummyError(
                f"{path} holds another tournament's game {task.key}: seats {list(record['seats'])}, "
                f"deal {record['match_seed']}; this tournament plays seats {list(task.seats)}, deal "
                f"{task.match_seed} (use another --out)"
            )
        kept.append(record)
    return kept


def summarise(
    records: Sequence[GameRecord],
    manifest: dict[str, Any],
    resamples: int = 2000,
    seed: int = 0,
    ratings: RatingMethod = "bradley-terry",
) -> Summary:
    """Ratings, per-agent totals and pairwise statistics of finished games."""
    order = list(dict.fromkeys(manifest["agents"]))
    low_wins = bool(manifest["low_score_wins"])
    return Summary(
        manifest=manifest,
        games=len(records),
        sets=len({int(r["set"]) for r in records}),
        ratings=fit_ratings(records, order, ratings, resamples=resamples, seed=seed),
        agents=agent_stats(records, order),
        pairs=pairwise(records, low_wins, order, resamples=resamples, seed=seed),
        rating_method=ratings,
        versions=dict(sorted(Counter(version_label(r.get("code")) for r in records).items())),
    )


def _check_arguments(
    variant: str,
    agents: tuple[str, ...],
    games: int,
    players: int,
    seed: int,
    workers: int,
    backend: str,
    options: tuple[str, ...],
    max_turns: int | None,
    game_fn: GameFn | None,
) -> None:
    if not isinstance(variant, str):
        raise RummyError(f"variant must be a variant id or a Variant, got {variant!r}")
    for name, value in (("sets", games), ("players", players), ("seed", seed), ("workers", workers)):
        check_whole(name, value)
    if games < 1:
        raise RummyError(f"the number of duplicate sets must be at least 1, got {games}")
    if games > MAX_SETS:
        raise RummyError(f"{games} duplicate sets is more than any run can play (at most {MAX_SETS:,})")
    if seed < 0:
        raise RummyError(f"seed must be non-negative, got {seed}")
    if workers < 1:
        raise RummyError(f"workers must be at least 1, got {workers}")
    if backend not in ("local", "ray"):
        raise RummyError(f"unknown backend {backend!r} (local or ray)")
    if len(set(agents)) < 2 and players > 1:
        raise RummyError(f"a tournament needs two different agents, got {', '.join(agents) or 'none'}")
    check_match_settings(variant, agents, players, options, max_turns, build_agents=game_fn is None)


def check_match_settings(
    variant: str,
    agents: Sequence[str],
    players: int,
    options: Sequence[str],
    max_turns: int | None,
    build_agents: bool = True,
) -> None:
    """Refuse, naming it, any setting a game could not be played with: the variant and its
    options, the number of players, `max_turns`, and (`build_agents`) each agent spec, built and
    checked to fit the variant. Tournaments and study plans call it before their first game."""
    rules = get_variant(variant, list(options))
    check_players(rules, players)
    check_max_turns(max_turns)
    if not build_agents:
        return
    from rummyai.agents import check_agent_fits, make_agent_from_spec

    for spec in dict.fromkeys(agents):
        try:
            agent = make_agent_from_spec(spec)
        except (TypeError, ValueError) as error:  # a parameter of the wrong type
            raise RummyError(f"agent spec {spec!r} cannot be built: {error}") from error
        check_agent_fits(agent, spec, rules, players)


class _progress:
    """A tqdm bar (games, games/s, time left) or a no-op; used as a context manager."""

    def __init__(self, total: int, done: int, label: str, enabled: bool) -> None:
        self._bar: Any = None
        if enabled:
            from tqdm import tqdm

            self._bar = tqdm(total=total, initial=done, unit="game", desc=label, smoothing=0.05)

    def __enter__(self) -> Callable[[int], object]:
        return self._bar.update if self._bar is not None else (lambda n: None)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.close()


def _execute(tasks: Iterator[GameTask], play: GameFn, workers: int, backend: Backend) -> Iterator[GameRecord]:
    """Records of `tasks` as they finish, on the chosen backend (nothing started when none is left)."""
    first = next(tasks, None)
    if first is None:
        return iter(())
    tasks = itertools.chain([first], tasks)
    if backend == "ray":
        return _execute_ray(tasks, play, workers)
    if workers == 1:
        return (play(task) for task in tasks)
    return _execute_pool(tasks, play, workers)


#: How often a pool worker checks that the tournament process that started it is still alive (s).
PARENT_POLL_SECONDS = 0.2


def watch_parent(tournament: int) -> None:
    """Worker initializer: exit as soon as the tournament process (pid `tournament`) is gone.

    A pool worker blocks reading its task queue, and a tournament killed with SIGKILL or SIGTERM
    never tells it to stop, so without this it would linger for ever, orphaned. The worker's own
    parent is watched too: it is the tournament under fork and spawn, a forkserver otherwise.
    """
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent and _alive(tournament):
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def _alive(pid: int) -> bool:
    """Whether process `pid` still exists (signal 0 checks without sending anything)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _execute_pool(tasks: Iterator[GameTask], play: GameFn, workers: int) -> Iterator[GameRecord]:
    queue = iter(tasks)
    pending: set[Future[GameRecord]] = set()
    # torch's thread pool does not survive a fork (its workers would wait on a barrier for ever):
    # once a policy has loaded it here, workers start from a clean forkserver process instead
    context = multiprocessing.get_context("forkserver") if "torch" in sys.modules else None
    with ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=watch_parent, initargs=(os.getpid(),)
    ) as pool:
        try:
            for task in queue:
                pending.add(pool.submit(play, task))
                if len(pending) >= 2 * workers:
                    break
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    yield future.result()
                    following = next(queue, None)
                    if following is not None:
                        pending.add(pool.submit(play, following))
        finally:
            for future in pending:
                future.cancel()


def _execute_ray(tasks: Iterator[GameTask], play: GameFn, workers: int) -> Iterator[GameRecord]:
    try:
        import ray
    except ImportError:
        raise RummyError("--backend ray needs Ray: pip install '.[ray]' from a clone") from None
    started = not ray.is_initialized()
    if started:
        address = os.environ.get("RAY_ADDRESS")
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(play)
        limit = max(2 * workers, int(ray.cluster_resources().get("CPU", 1)) * 2)
        queue = iter(tasks)
        pending = [remote.remote(task) for _, task in zip(range(limit), queue, strict=False)]
        while pending:
            finished, pending = ray.wait(pending, num_returns=1)
            for ref in finished:
                yield ray.get(ref)
                following = next(queue, None)
                if following is not None:
                    pending.append(remote.remote(following))
    finally:
        if started:
            ray.shutdown()
