"""`python -m llmbook.offline site`: the post-build check of `site/offline.py`, under the name
the docs, the workflows and `llmbook new`'s templates run."""

import runpy

if __name__ == "__main__":
    runpy.run_module("llmbook.site.offline", run_name="__main__", alter_sys=True)
