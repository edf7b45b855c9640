"""Page code reads no credential in the home folder and sends nothing over the network: Landlock
hides the home folders but for what a build needs (execute/sandbox/reads.py), seccomp takes internet
sockets (execute/sandbox/seccomp.py), for the page, its subprocesses and native code alike; the opt-ins
(`execute_read`, `execute_network`) give back exactly what they name."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from llmbook.core.errors import AuthorError, LLMBookError
from llmbook.execute.sandbox.landlock import landlock_abi
from llmbook.execute.sandbox.seccomp import seccomp_available

needs_landlock = pytest.mark.skipif(landlock_abi() == 0, reason="this kernel has no Landlock")
needs_seccomp = pytest.mark.skipif(not seccomp_available(), reason="no seccomp filters here")

CREDENTIALS = {
    ".ssh/id_ed25519": "-----BEGIN OPENSSH PRIVATE KEY-----\nllmbook-test-key-0001\n",
    ".aws/credentials": "[default]\naws_secret_access_key = llmbook-test-key-0002\n",
    ".netrc": "machine example.org login me password llmbook-test-key-0003\n",
    ".git-credentials": "https://me:llmbook-test-key-0004@example.org\n",
}
FIX_READ = (
    "Fix: page code reads the home folder only in the project, Python's packages and the cache "
    "folder: list the file or folder under the llmbook option `execute_read` in mkdocs.yml to "
    "let pages read it"
)
FIX_NETWORK = (
    "Fix: page code has no network by default: give the page `execute_network: true` in its "
    "front matter and set the llmbook option `execute_network: pages` in mkdocs.yml"
)


@pytest.fixture
def home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder beside the project, holding the usual credential files."""
    folder = tmp_path_factory.mktemp("home")
    for name, text in CREDENTIALS.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    return folder


def _page(code: str) -> str:
    return "```python\n" + textwrap.dedent(code).strip() + "\n```\n"


def _error(run_md, code: str, **options: object) -> str:
    with pytest.raises(AuthorError) as error:
        run_md(_page(code), **options)
    return str(error.value)


@needs_landlock
@pytest.mark.parametrize("name", sorted(CREDENTIALS))
def test_reading_a_credential_file_fails_at_its_line(run_md, home: Path, name: str) -> None:
    path = home / name
    text = _error(run_md, f"import os\nprint(open(os.path.expanduser('~/{name}')).read())")
    assert text.startswith(
        f"docs/page.md:3: PermissionError: [Errno 13] Permission denied: '{path}' "
        "(python block at line 1)\n"
    )
    assert text.endswith(FIX_READ)
    assert CREDENTIALS[name].splitlines()[-1] not in text


@needs_landlock
def test_subprocesses_and_native_code_cannot_read_the_home_folder(run_md, home: Path) -> None:
    code = f"""
        import ctypes, os, subprocess
        print(subprocess.run(["cat", {str(home / ".netrc")!r}], capture_output=True).returncode)
        print(ctypes.CDLL(None).open({str(home / ".ssh/id_ed25519").encode()!r}, os.O_RDONLY))
        try:
            os.listdir({str(home)!r})
        except PermissionError:
            print("hidden")
    """
    assert run_md(_page(code)).result.blocks[0].output == "1\n-1\nhidden\n"


@needs_landlock
def test_the_project_python_and_cache_stay_readable(run_md, home: Path, tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "docs" / "data.txt").write_text("旁边的文件", encoding="utf-8")
    (home / ".cache").mkdir(exist_ok=True)
    (home / ".cache" / "weights.bin").write_bytes(b"w")
    code = """
        import os, numpy, torch
        print(open(os.path.join(os.path.dirname(__file__), "data.txt")).read())
        print(open(os.path.expanduser("~/.cache/weights.bin"), "rb").read())
        print(os.path.exists(numpy.__file__), torch.ones(2).sum().item())
    """
    assert run_md(_page(code)).result.blocks[0].output == "旁边的文件\nb'w'\nTrue 2.0\n"


@needs_landlock
def test_triton_and_cuda_caches_go_where_a_page_may_write(run_md, home: Path) -> None:
    code = """
        import os
        for name in ("TRITON_CACHE_DIR", "CUDA_CACHE_PATH"):
            os.makedirs(os.environ[name], exist_ok=True)
            open(os.path.join(os.environ[name], "kernel"), "w").write("k")
        print(os.environ["CUBLAS_WORKSPACE_CONFIG"])
    """
    assert run_md(_page(code)).result.blocks[0].output == ":4096:8\n"
    assert (home / ".cache" / "triton" / "kernel").exists()
    assert (home / ".cache" / "nv" / "ComputeCache" / "kernel").exists()


@needs_landlock
def test_execute_read_grants_what_it_names(run_md, home: Path) -> None:
    code = "import os\nprint(open(os.path.expanduser('~/.netrc')).read().split()[-1])"
    output = run_md(_page(code), execute_read=["~/.netrc"]).result.blocks[0].output
    assert output == "llmbook-test-key-0003\n"
    text = _error(run_md, "print(open(" + repr(str(home / ".aws/credentials")) + ").read())")
    assert text.endswith(FIX_READ)  # the grant was of one file, not the home folder


def test_execute_read_names_what_does_not_exist(make_executor, home: Path) -> None:
    with pytest.raises(LLMBookError) as error:
        make_executor(execute_read=["~/.kube/config"])
    assert str(error.value) == (
        f"mkdocs.yml: `execute_read` names '~/.kube/config', which does not exist "
        f"({home}/.kube/config). Fix: list files or folders that pages may read, absolute, from "
        "`~` or from the project"
    )


@needs_landlock
def test_the_builds_own_environment_block_is_out_of_reach(run_md) -> None:
    text = _error(run_md, f"open('/proc/{os.getpid()}/environ', 'rb').read()")
    assert text.startswith(
        f"docs/page.md:2: PermissionError: [Errno 13] Permission denied: "
        f"'/proc/{os.getpid()}/environ' (python block at line 1)\n"
    )


@pytest.fixture
def datagrams():
    """A UDP socket on 127.0.0.1: (its port, a function returning what reached it)."""
    server = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    server.bind(("127.0.0.1", 0))
    server.settimeout(0.5)

    def received() -> list[bytes]:
        got = []
        try:
            while True:
                got.append(server.recv(100))
        except TimeoutError:
            return got

    yield server.getsockname()[1], received
    server.close()


SEND_UDP = "import socket\nsocket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'leak', ('127.0.0.1', {port}))"


@needs_seccomp
def test_sending_udp_fails_at_its_line(run_md, datagrams) -> None:
    port, received = datagrams
    text = _error(run_md, SEND_UDP.format(port=port))
    assert text.startswith(
        "docs/page.md:3: PermissionError: [Errno 13] Permission denied (python block at line 1)\n"
    )
    assert text.endswith(FIX_NETWORK)
    assert received() == []


@needs_seccomp
def test_subprocesses_and_native_code_send_no_datagram(run_md, datagrams) -> None:
    port, received = datagrams
    code = f"""
        import ctypes, subprocess, sys
        child = subprocess.run([sys.executable, "-c", {SEND_UDP.format(port=port)!r}],
                               capture_output=True, text=True)
        print(child.returncode, "PermissionError" in child.stderr)
        print(ctypes.CDLL(None).socket(2, 2, 0), ctypes.CDLL(None).socket(10, 1, 0))
        print(ctypes.CDLL(None).socket(1, 1, 0) >= 0)  # unix sockets stay (multiprocessing)
    """
    assert run_md(_page(code)).result.blocks[0].output == "1 True\n-1 -1\nTrue\n"
    assert received() == []


@needs_seccomp
def test_a_page_allowed_the_network_sends(run_md, datagrams) -> None:
    port, received = datagrams
    asking = "---\nexecute_network: true\n---\n" + _page(SEND_UDP.format(port=port))
    run_md(asking, execute_network="pages")
    assert received() == [b"leak"]


def test_a_required_sandbox_names_the_missing_socket_guard(make_executor, monkeypatch) -> None:
    monkeypatch.setattr("llmbook.execute.sandbox.guards.landlock_abi", lambda: 7)
    monkeypatch.setattr("llmbook.execute.sandbox.guards.seccomp_available", lambda: False)
    with pytest.raises(LLMBookError) as error:
        make_executor(execute_sandbox="required")
    assert str(error.value) == (
        "mkdocs.yml: `execute_sandbox: required`, but this machine cannot guard page code: this "
        "machine has no seccomp filters, so pages could send UDP (and TCP without Landlock ABI "
        "4). Fix: build on Linux 5.13 or later with Landlock and seccomp enabled (`landlock` in "
        "/sys/kernel/security/lsm), or set `execute_sandbox: auto`"
    )
    assert make_executor(execute_sandbox="required", execute_network="all")  # nothing to guard


def test_the_page_server_ends_with_the_build(tmp_path: Path) -> None:
    """The forkserver dies with the build even while it still imports torch (an early exit).
    Its output goes to a file: a pipe would wait for the forkserver, which holds it too."""
    script = (
        "import multiprocessing.forkserver as f\n"
        "from llmbook.execute.sandbox.server import page_context\n"
        "page_context()\n"
        "print(f._forkserver._forkserver_pid, flush=True)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = tmp_path / "out.txt"
    with out.open("w") as stdout:
        subprocess.run([sys.executable, "-c", script], stdout=stdout, env=env, check=True)
    pid = int(out.read_text().split()[-1])
    assert not Path(f"/proc/{pid}").exists() or _zombie(pid)


def _zombie(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat[stat.rindex(")") + 2] == "Z"
