"""The repository's GitHub Actions workflow for sharded builds (.github/workflows/book-sharded.yml,
docs/guide/executable.md "CI 分片"): valid YAML, official actions only, the commands the guide
describes, and its shell steps run here as a runner runs them: a shard uploads only the cache
entries it wrote, and the site job merges them over an older cache without losing one."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from llmbook.adapters.config import LLMBookConfig
from llmbook.core.store import Store
from sites import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "book-sharded.yml"


@pytest.fixture(scope="module")
def workflow() -> dict[str, Any]:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def steps(workflow: dict[str, Any], job: str) -> list[dict[str, Any]]:
    return workflow["jobs"][job]["steps"]


def step(workflow: dict[str, Any], job: str, name: str) -> dict[str, Any]:
    (found,) = [s for s in steps(workflow, job) if s.get("id") == name]
    return found


def test_the_workflow_uses_official_actions_only(workflow) -> None:
    assert set(workflow[True]) == {"push", "pull_request", "workflow_dispatch"}  # YAML's `on`
    used = {s["uses"] for job in workflow["jobs"] for s in steps(workflow, job) if "uses" in s}
    assert used and all(re.fullmatch(r"actions/[a-z-]+(/[a-z]+)?@v\d+", u) for u in used), used
    assert workflow["defaults"]["run"]["shell"] == "bash"  # pipefail on every run step


def test_each_shard_runs_its_share_and_one_job_assembles_the_site(workflow) -> None:
    shard = workflow["jobs"]["shard"]
    numbers = shard["strategy"]["matrix"]["shard"]
    assert numbers == list(range(len(numbers))) and len(numbers) > 1
    (run,) = [s for s in shard["steps"] if "LLMBOOK_SHARD" in s.get("env", {})]
    assert run["env"]["LLMBOOK_SHARD"] == "${{ matrix.shard }}/${{ strategy.job-total }}"
    assert run["run"] == 'nox --envdir "$RUNNER_TEMP/nox" -s docs'  # the environment outside
    site = workflow["jobs"]["site"]
    assert site["needs"] == "shard"
    # A failed shard's work is kept: it uploads, and the site job merges and saves.
    upload = [s for s in shard["steps"] if "upload-artifact" in s.get("uses", "")]
    save = [s for s in site["steps"] if "cache/save" in s.get("uses", "")]
    kept = [step(workflow, "shard", "pack"), *upload, site, *save]
    assert [s.get("if") for s in kept] == ["${{ !cancelled() }}"] * 4
    (assemble,) = [s for s in site["steps"] if "LLMBOOK_EXECUTE" in s.get("env", {})]
    assert assemble["env"] == {"LLMBOOK_EXECUTE": "0"}
    assert assemble["run"] == run["run"]
    names = [s.get("id") for s in site["steps"]]
    assert names.index("merge") < site["steps"].index(assemble)
    assert "LLMBOOK_SHARD" not in WORKFLOW.read_text().split("\n  site:")[1]


def test_every_step_names_the_one_cache_folder(workflow) -> None:
    folder = workflow["env"]["LLMBOOK_CACHE_DIR"]
    assert folder == LLMBookConfig().cache_dir
    kept = [
        s["with"]["path"]
        for job in workflow["jobs"]
        for s in steps(workflow, job)
        if s.get("uses", "").startswith("actions/cache")
    ]
    assert kept and set(kept) == {folder}
    uploads = [s["with"]["name"] for s in steps(workflow, "shard") if "upload" in s.get("uses", "")]
    (download,) = [s for s in steps(workflow, "site") if "download" in s.get("uses", "")]
    pattern = download["with"]["pattern"].replace("*", "${{ matrix.shard }}")
    assert uploads == [pattern] and download["with"]["merge-multiple"] is True


def run_step(workflow, job: str, name: str, cwd: Path, temp: Path, **env: str) -> None:
    """A step's script as the runner runs it (bash -eo pipefail), in `cwd`."""
    environ = {**os.environ, **workflow["env"], "RUNNER_TEMP": str(temp), **env}
    script = step(workflow, job, name)["run"]
    bash = ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script]
    subprocess.run(bash, cwd=cwd, env=environ, check=True)


def restored(runner: Path, folder: str) -> Store:
    """The runner's checkout, its cache restored from an older run: both pages' old results."""
    store = Store(runner / folder)
    for page in ("docs/one.md", "docs/two.md"):
        slot = store.slot("results", page)
        slot.put("old key", {"src": page})
        os.utime(slot.path, (time.time() - 3600,) * 2)
    return store


def test_shards_upload_what_they_wrote_and_the_site_job_merges_it(workflow, tmp_path) -> None:
    folder = workflow["env"]["LLMBOOK_CACHE_DIR"]
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    for shard, page in ((0, "docs/one.md"), (1, "docs/two.md")):
        runner = tmp_path / f"shard{shard}"
        store = restored(runner, folder)
        run_step(workflow, "shard", "stamp", runner, temp)
        time.sleep(0.05)  # file times are as fine as the kernel's clock tick
        store.slot("results", page).put("new key", {"src": page})  # the build: its own page
        run_step(workflow, "shard", "pack", runner, temp, SHARD=str(shard))
        (tmp_path / "site" / "shards").mkdir(parents=True, exist_ok=True)
        archive = f"llmbook-cache-shard-{shard}.tar"
        shutil.copy(runner / archive, tmp_path / "site" / "shards" / archive)
    site = restored(tmp_path / "site", folder)
    run_step(workflow, "site", "merge", tmp_path / "site", temp)
    # Each page holds its shard's fresh entry: no shard's restored copy came back over it.
    for page in ("docs/one.md", "docs/two.md"):
        assert site.slot("results", page).get("new key") == {"src": page}
    assert len(list((tmp_path / "site" / folder / "results").iterdir())) == 2
