"""MkDocs hooks: serve the study plots that docs/results.md shows from the `studies/` folders.

The results page links each plot where it lives in the repository (`../studies/NAME/forest.png`,
so the link works when the Markdown is read in the repository too); the site gets a copy of
every study's plots (`studies/NAME/*.png`) and the page's links point at it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

STUDIES = Path(__file__).resolve().parent / "studies"


def on_files(files: Files, config: Any) -> Files:
    for plot in sorted(STUDIES.glob("*/*.png")):
        uri = plot.relative_to(STUDIES.parent).as_posix()
        files.append(File(uri, str(STUDIES.parent), config["site_dir"], config["use_directory_urls"]))
    return files


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    if page.file.src_uri != "results.md":
        return markdown
    return markdown.replace("](../studies/", "](studies/")
