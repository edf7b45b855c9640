"""A page's code sees an allowlisted environment (execute/sandbox/environment.py): the build's secrets are
absent from `os.environ`, from the environment block it inherited and from its subprocesses;
`execute_env` (mkdocs.yml or front matter) passes named variables through."""

from __future__ import annotations

import pytest
from llmbook.core.errors import AuthorError, LLMBookError
from llmbook.execute.sandbox.environment import looks_secret, page_environment
from llmbook.execute.sandbox.landlock import landlock_abi
from sites import build, write_config, write_pages

SECRETS = {
    "GITHUB_TOKEN": "ghp_llmbooktestsecret0001",
    "AWS_SECRET_ACCESS_KEY": "awsllmbooktestsecret0002",
    "DEPLOY_PASSWORD": "pwllmbooktestsecret0003",
    "HF_TOKEN": "hf_llmbooktestsecret0004",
    "SOME_APP_SETTING": "plainllmbooktest0005",
}

PROBE = """\
```python
import os, subprocess, sys
names = {names!r}
print("environ", sorted(n for n in names if n in os.environ))
block = open("/proc/self/environ", "rb").read().decode(errors="replace")
print("block", sorted(n for n in names if n + "=" in block))
child = subprocess.run([sys.executable, "-c", "import os; print(sorted(os.environ))"],
                       capture_output=True, text=True).stdout
print("child", sorted(n for n in names if repr(n) in child))
```
"""


def _probe(run_md, monkeypatch, front: str = "", **options: object) -> str:
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    plan = run_md(front + PROBE.format(names=sorted(SECRETS)), **options)
    return plan.result.blocks[0].output


def test_the_allowlist_keeps_what_python_and_torch_need_and_drops_credentials():
    environ = {
        "PATH": "/usr/bin",
        "HOME": "/home/a",
        "LC_ALL": "C.UTF-8",
        "OMP_NUM_THREADS": "1",
        "CUDA_VISIBLE_DEVICES": "0",
        "HF_HOME": "/cache/hf",
        "PYTHONPATH": "/src",
        **SECRETS,
    }
    assert page_environment(environ) == {
        "PATH": "/usr/bin",
        "HOME": "/home/a",
        "LC_ALL": "C.UTF-8",
        "OMP_NUM_THREADS": "1",
        "CUDA_VISIBLE_DEVICES": "0",
        "HF_HOME": "/cache/hf",
        "PYTHONPATH": "/src",
    }
    assert page_environment(environ, ["HF_TOKEN", "SOME_APP_SETTING"]) == {
        **page_environment(environ),
        "HF_TOKEN": SECRETS["HF_TOKEN"],
        "SOME_APP_SETTING": SECRETS["SOME_APP_SETTING"],
    }
    assert all(looks_secret(name) for name in ("GITHUB_TOKEN", "PGPASSWORD", "API_KEY"))


def test_a_page_finds_no_secret_in_its_environment_block_or_subprocesses(run_md, monkeypatch):
    output = _probe(run_md, monkeypatch)
    assert output == "environ []\nblock []\nchild []\n"
    assert not any(value in output for value in SECRETS.values())


def test_execute_env_in_the_front_matter_passes_named_variables(run_md, monkeypatch):
    front = "---\nexecute_env: [HF_TOKEN, SOME_APP_SETTING]\n---\n"
    output = _probe(run_md, monkeypatch, front)
    assert output.splitlines()[0] == "environ ['HF_TOKEN', 'SOME_APP_SETTING']"
    assert output.splitlines()[2] == "child ['HF_TOKEN', 'SOME_APP_SETTING']"


def test_execute_env_in_mkdocs_yml_passes_named_variables_to_every_page(run_md, monkeypatch):
    output = _probe(run_md, monkeypatch, execute_env=["GITHUB_TOKEN"])
    assert output.splitlines()[0] == "environ ['GITHUB_TOKEN']"


def test_a_passed_variable_keys_the_page_results(make_executor, monkeypatch, tmp_path):
    page = "---\nexecute_env: [SOME_APP_SETTING]\n---\n```python\nimport os\nx = os.environ['SOME_APP_SETTING']\n```\n\n[[len(x) = 1]]\n"
    monkeypatch.setenv("SOME_APP_SETTING", "a")
    make_executor(cache=True).run_page(page, src="docs/page.md")
    monkeypatch.setenv("SOME_APP_SETTING", "ab")
    plan = make_executor(cache=True).run_page(page, src="docs/page.md")
    assert plan.mismatches == ["docs/page.md:9: written 1, computed 2"]


def test_wrong_names_are_errors_that_say_how_to_fix_them(run_md, make_executor):
    with pytest.raises(AuthorError) as error:
        run_md("---\nexecute_env: HF_TOKEN\n---\n```python\nx = 1\n```\n")
    assert str(error.value) == (
        "docs/page.md:1: front matter `execute_env: HF_TOKEN` is not a list of environment "
        "variable names Fix: write e.g. `execute_env: [HF_TOKEN]`: those variables of the "
        "build's environment are passed to this page's code"
    )
    with pytest.raises(LLMBookError) as error:
        make_executor(execute_env=["HF TOKEN"])
    assert str(error.value) == (
        "mkdocs.yml: `execute_env` holds 'HF TOKEN', which is no environment variable name. "
        "Fix: list names such as HF_TOKEN (letters, digits, _)"
    )


CREDENTIAL_FILES = {".ssh/id_ed25519": "sshllmbooktestsecret0006", ".netrc": "netrcllmbooktest0007"}


@pytest.mark.slow
def test_no_secret_reaches_the_built_site_or_the_log(tmp_path, tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    for name, secret in CREDENTIAL_FILES.items():
        (home / name).parent.mkdir(parents=True, exist_ok=True)
        (home / name).write_text(secret, encoding="utf-8")
    page = (
        "# 页\n\n```python\nimport os\nprint(os.environ.get('GITHUB_TOKEN'), "
        "os.environ.get('AWS_SECRET_ACCESS_KEY'))\n"
        f"for name in {sorted(CREDENTIAL_FILES)!r}:\n"
        "    try:\n        print(open(os.path.expanduser('~/' + name)).read())\n"
        "    except PermissionError:\n        print('denied')\n```\n"
    )
    write_pages(tmp_path / "docs", {"index.md": page})
    config = write_config(
        tmp_path,
        "site_name: t\nuse_directory_urls: false\nplugins:\n  - search\n  - llmbook:\n"
        "      offline_check: false\nmarkdown_extensions: [llmbook.extension, pymdownx.superfences]\n",
    )
    built = build(config, cache=False, env={**SECRETS, "HOME": str(home)}).ok()
    assert "None None\ndenied\ndenied" in built.page()
    shipped = [p.read_bytes() for p in built.site.rglob("*") if p.is_file()]
    for value in [*SECRETS.values(), *CREDENTIAL_FILES.values()]:
        assert value not in built.stdout + built.stderr
        assert not any(value.encode() in data for data in shipped)


CONNECT = """\
```python
import socket
with socket.create_connection(("127.0.0.1", {port}), timeout=5) as connection:
    connection.sendall(b"hello")
print("sent")
```
"""


@pytest.fixture
def listener():
    import socket

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    yield server.getsockname()[1]
    server.close()


@pytest.mark.skipif(landlock_abi() < 4, reason="TCP rules need Landlock ABI 4 (Linux 6.7)")
def test_page_code_has_no_tcp_unless_the_page_asks_and_the_site_allows(run_md, listener):
    with pytest.raises(AuthorError) as error:
        run_md(CONNECT.format(port=listener))
    assert str(error.value).startswith(
        "docs/page.md:3: PermissionError: [Errno 13] Permission denied (python block at line 1)"
    )
    assert str(error.value).endswith(
        "Fix: page code has no network by default: give the page `execute_network: true` in "
        "its front matter and set the llmbook option `execute_network: pages` in mkdocs.yml"
    )
    asking = "---\nexecute_network: true\n---\n" + CONNECT.format(port=listener)
    with pytest.raises(AuthorError) as error:
        run_md(asking)
    assert str(error.value) == (
        "docs/page.md:1: the page asks for the network (`execute_network: true`), but "
        "mkdocs.yml allows it to no page Fix: set the llmbook option `execute_network: pages` "
        "in mkdocs.yml"
    )
    assert run_md(asking, execute_network="pages").result.blocks[0].output == "sent\n"
    assert run_md(CONNECT.format(port=listener), execute_network="all").result
