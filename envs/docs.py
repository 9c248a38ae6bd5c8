"""The environments' reference page (`docs/environments.md`), written from the classes' docstrings.

python -m rummyai.envs.docs > docs/environments.md
"""

from __future__ import annotations

import inspect

from rummyai.envs.variant_envs import ENV_CLASSES

INTRO = """# Environments

Seven Gymnasium environments, one per variant, registered by `import rummyai.envs`. Each step is
one decision of the learner among at most K candidate moves (`Discrete(K)`, default 32); the
observation is a flat `Dict` of arrays with the action mask and a `(K, F)` feature matrix of the
candidates beside it, so one scoring network with shared weights can rank candidates, and
`MaskablePPO("MultiInputPolicy", gym.make(id))` trains on it without wrappers. `aec_env(id)`
gives the PettingZoo AEC view (every seat an agent, for self-play); `rummyai.envs.PolicyAgent`
turns any trained policy into an agent for `rummyai tournament` (the registered `policy` agent).
This page is generated from the classes' docstrings: `python -m rummyai.envs.docs`.

| id | variant | class |
| --- | --- | --- |
"""


def markdown() -> str:
    """The whole page."""
    rows = "".join(
        f"| `{env_id}` | `{cls.variant_id}` | `{cls.__name__}` |\n" for env_id, cls in ENV_CLASSES.items()
    )
    sections = []
    for env_id, cls in ENV_CLASSES.items():
        doc = inspect.cleandoc(cls.__doc__ or "")
        body = doc.replace("\n## ", "\n### ")
        sections.append(f"## {env_id}\n\n{body}\n")
    return INTRO + rows + "\n" + "\n".join(sections)


if __name__ == "__main__":
    print(markdown(), end="")
