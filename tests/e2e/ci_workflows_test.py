# SPDX-License-Identifier: Apache-2.0
"""The sample workflows in docs/ci and action.yml: YAML that parses, and the parts of the fork
recipe (docs/ci/github.md) that no run of the binary can check: which job holds which token,
what runs on which event, and the step that takes the `gpu-ok` label off on every new push.
GitHub itself is not here, so the jobs' commands are tested by fork_workflow_test.cpp.
Exit 77 (skipped) where PyYAML is missing (pre-commit, installed by scripts/setup.sh, brings it).
Usage: ci_workflows_test.py SOURCE_DIR"""

import http.server
import pathlib
import subprocess
import sys
import threading
import unittest

try:
    import yaml
except ImportError:
    print("PyYAML is not installed (scripts/setup.sh installs pre-commit, which needs it)")
    sys.exit(77)

SOURCE = pathlib.Path(sys.argv.pop(1) if len(sys.argv) > 1 else ".")


def load(relative):
    text = (SOURCE / relative).read_text()
    return text, yaml.safe_load(text)


def triggers(workflow):
    # YAML 1.1 reads the key `on` as the boolean true.
    return workflow.get("on", workflow.get(True))


class FakeLabelApi:
    """Answers every request with `status` on loopback and records (method, path, authorization)."""

    def __init__(self, status):
        self.requests = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_DELETE(self):
                outer.requests.append(("DELETE", self.path, self.headers.get("Authorization")))
                self.send_response(status)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"[]")

            def log_message(self, *args):
                pass

        self.server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *args):
        self.server.shutdown()
        self.server.server_close()


def steps_using(job, action):
    return [step for step in job.get("steps", []) if step.get("uses", "").startswith(action)]


class PullRequestWorkflow(unittest.TestCase):
    """docs/ci/kforecast-workflow.yml: runs the pull request's code, so holds no write token."""

    def setUp(self):
        self.text, self.workflow = load("docs/ci/kforecast-workflow.yml")
        self.jobs = self.workflow["jobs"]

    def test_runs_on_pull_request_pushes_and_labels(self):
        on = triggers(self.workflow)
        self.assertEqual(set(on), {"pull_request"})
        self.assertTrue({"opened", "synchronize", "labeled"} <= set(on["pull_request"]["types"]))

    def test_no_job_can_write_or_read_secrets(self):
        self.assertEqual(self.workflow["permissions"], {"contents": "read"})
        for name, job in self.jobs.items():
            for scope, access in (job.get("permissions") or {}).items():
                self.assertNotEqual(access, "write", f"job {name}: {scope}: write")
        self.assertNotIn("secrets.", self.text)

    def test_the_merge_job_does_not_post(self):
        merge = steps_using(self.jobs["merge"], "OWNER/kforecast")
        self.assertEqual(len(merge), 1)
        self.assertEqual(merge[0]["with"]["mode"], "merge")
        self.assertEqual(merge[0]["with"]["post"], False)

    def test_gpu_jobs_for_forks_only_on_the_labelled_event(self):
        # The labels of a `synchronize` event still hold a label added before the push: only the
        # `labeled` event itself is a maintainer's approval of the head it names.
        condition = " ".join(self.jobs["measure"]["if"].split())
        self.assertIn("github.event.action == 'labeled' && github.event.label.name == 'gpu-ok'", condition)
        self.assertNotIn("pull_request.labels", condition)
        self.assertEqual(self.jobs["measure"]["permissions"], {})
        self.assertEqual(steps_using(self.jobs["measure"], "actions/checkout"), [])

    def test_artifacts_for_the_comment_workflow(self):
        uploaded = [step["with"]["name"] for job in self.jobs.values()
                    for step in steps_using(job, "actions/upload-artifact")]
        self.assertIn("kforecast-plan", uploaded)
        self.assertIn("kforecast-results-${{ strategy.job-index }}", uploaded)


class CommentWorkflow(unittest.TestCase):
    """docs/ci/kforecast-comment.yml: holds the write token, so runs nothing of the pull request."""

    def setUp(self):
        self.text, self.workflow = load("docs/ci/kforecast-comment.yml")
        self.jobs = self.workflow["jobs"]
        _, pull_request_workflow = load("docs/ci/kforecast-workflow.yml")
        self.first_name = pull_request_workflow["name"]

    def test_triggers(self):
        on = triggers(self.workflow)
        self.assertEqual(on["workflow_run"], {"workflows": [self.first_name], "types": ["completed"]})
        self.assertEqual(on["pull_request_target"], {"types": ["synchronize"]})
        self.assertEqual(set(on), {"workflow_run", "pull_request_target"})

    def test_nothing_of_the_pull_request_is_checked_out(self):
        self.assertNotIn("actions/checkout", self.text)
        self.assertNotIn("secrets.", self.text)
        self.assertNotIn("head.sha", self.text)
        self.assertNotIn("head_sha", self.text)

    def test_the_comment_job_posts_from_the_triggering_runs_artifacts(self):
        job = self.jobs["comment"]
        self.assertIn("github.event_name == 'workflow_run'", job["if"])
        self.assertIn("github.event.workflow_run.event == 'pull_request'", job["if"])
        self.assertEqual(job["permissions"], {"actions": "read", "pull-requests": "write"})
        downloads = steps_using(job, "actions/download-artifact")
        self.assertTrue(downloads)
        for step in downloads:
            self.assertEqual(step["with"]["run-id"], "${{ github.event.workflow_run.id }}")
        kforecast = steps_using(job, "OWNER/kforecast")
        self.assertEqual(len(kforecast), 1)
        self.assertEqual(kforecast[0]["with"]["mode"], "merge")
        self.assertEqual(kforecast[0]["with"]["post"], True)

    def test_a_new_push_takes_the_gpu_ok_label_off(self):
        job = self.jobs["revoke-gpu-ok"]
        self.assertIn("github.event_name == 'pull_request_target'", job["if"])
        self.assertEqual(job["permissions"], {"pull-requests": "write"})
        self.assertEqual(len(job["steps"]), 1)
        step = job["steps"][0]
        self.assertEqual(step["env"], {"GH_TOKEN": "${{ github.token }}",
                                       "PR": "${{ github.event.pull_request.number }}"})
        # The step's own script, run against a loopback stand-in for GitHub's API: it deletes the
        # label with the token, and a label that is not there (404) is not a failure.
        for status, exit_code in ((200, 0), (404, 0), (403, 1)):
            with FakeLabelApi(status) as api:
                ran = subprocess.run(["bash", "-e", "-c", step["run"]], capture_output=True, text=True, timeout=60,
                                     env={"PATH": "/usr/bin:/bin", "GH_TOKEN": "ghs_x", "PR": "12",
                                          "GITHUB_API_URL": api.url, "GITHUB_REPOSITORY": "octo/kernels"})
            self.assertEqual(ran.returncode, exit_code, ran.stderr)
            self.assertEqual(api.requests, [("DELETE", "/repos/octo/kernels/issues/12/labels/gpu-ok",
                                             "Bearer ghs_x")])


class Action(unittest.TestCase):
    def test_parses_and_posts_in_gate_and_merge_modes(self):
        _, action = load("action.yml")
        self.assertEqual(action["runs"]["using"], "composite")
        script = action["runs"]["steps"][-1]["run"]
        self.assertIn("report --merge", script)
        self.assertEqual(script.count("args+=(--post)"), 2)


if __name__ == "__main__":
    unittest.main(verbosity=2)
