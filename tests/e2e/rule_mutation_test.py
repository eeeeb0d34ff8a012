#!/usr/bin/python3
"""The rule unit tests catch a broken rule: mutants of the rule file must fail them.

For every alert of deploy/prometheus/jvmsight-rules.yaml this writes mutants to a
temporary directory and runs `promtool test rules` on the unchanged test file:
  - never:  the alert's expression can never fire      -> a firing case must fail
  - always: it also fires (at once) where the original
            expression is empty                          -> a not-firing case must fail
  - no-for: its `for:` removed                          -> a pending case must fail
  - each side of a top-level `or` removed               -> the other path's case must fail
and the same `or` sides for recording rules. The unmodified copy must pass.
It also checks that the test file, for every alert, expects it firing at some
time and expects it absent at a later time (recovery) and at an earlier one.

Usage: rule_mutation_test.py <rules.yaml> <rules.test.yaml> [promtool]
"""
import concurrent.futures
import copy
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml


def duration_seconds(text):
    total = 0
    for number, unit in re.findall(r"(\d+)(ms|s|m|h|d|w|y)", text):
        total += int(number) * {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800, "y": 31536000}[unit]
    return total


def top_level_or_sides(expr):
    """The operands of `or` at parenthesis depth 0, or [] if there is none."""
    sides, depth, start = [], 0, 0
    tokens = re.finditer(r"[()]|\bor\b", expr)
    for t in tokens:
        if t.group() == "(":
            depth += 1
        elif t.group() == ")":
            depth -= 1
        elif depth == 0:
            sides.append(expr[start:t.start()])
            start = t.end()
    if not sides:
        return []
    sides.append(expr[start:])
    return [s.strip() for s in sides]


def rules_of(doc):
    for group in doc["groups"]:
        for rule in group["rules"]:
            yield rule


def mutants(doc):
    """(description, mutated document) pairs."""
    for index, rule in enumerate(rules_of(doc)):
        name = rule.get("alert") or rule.get("record")

        def mutate(change):
            m = copy.deepcopy(doc)
            change(list(rules_of(m))[index])
            return m

        if "alert" in rule:
            yield f"{name}: never fires", mutate(lambda r: r.update(expr="vector(1) < 0"))
            # Without its `for`, so that the extra alert fires at once wherever
            # the original expression is empty.
            yield f"{name}: also fires when it should not", mutate(
                lambda r: (r.update(expr=f"({r['expr'].strip()}) or on () vector(1)"), r.pop("for", None)))
            if duration_seconds(str(rule.get("for", "0s"))) > 0:
                yield f"{name}: no for", mutate(lambda r: r.pop("for"))
        sides = top_level_or_sides(rule["expr"])
        for i, _ in enumerate(sides):
            kept = " or ".join(s for j, s in enumerate(sides) if j != i)
            yield f"{name}: without `or` side {i + 1}", mutate(lambda r, kept=kept: r.update(expr=kept))


def run_promtool(promtool, tests_path, rules_name, doc):
    """promtool's verdict on the test file against these rules, in a directory of their own."""
    with tempfile.TemporaryDirectory(prefix="jvmsight-rule-mutant-") as work:
        shutil.copy(tests_path, work)
        with open(os.path.join(work, rules_name), "w") as f:
            yaml.safe_dump(doc, f, sort_keys=False)
        return subprocess.run([promtool, "test", "rules", os.path.basename(tests_path)], cwd=work,
                              capture_output=True, text=True, timeout=120)


def coverage_problems(rules_doc, tests_doc):
    """Alerts the test file never shows firing, or never shows absent before and after firing."""
    problems = []
    for rule in rules_of(rules_doc):
        if "alert" not in rule:
            continue
        name = rule["alert"]
        cases = []
        for test in tests_doc["tests"]:
            for case in test.get("alert_rule_test", []):
                if case["alertname"] == name:
                    cases.append((test["name"], duration_seconds(case["eval_time"]), bool(case.get("exp_alerts"))))
        firing = [(t, at) for t, at, fires in cases if fires]
        if not firing:
            problems.append(f"{name}: no test case expects it to fire")
            continue
        for test_name in {t for t, _ in firing}:
            times = sorted((at, fires) for t, at, fires in cases if t == test_name)
            first_fire = min(at for at, fires in times if fires)
            last_fire = max(at for at, fires in times if fires)
            if not any(at < first_fire and not fires for at, fires in times):
                problems.append(f"{name} ({test_name}): no case expects it absent before it fires")
            if not any(at > last_fire and not fires for at, fires in times):
                problems.append(f"{name} ({test_name}): no case expects it to recover")
    return problems


def main():
    rules_path, tests_path = sys.argv[1], sys.argv[2]
    promtool = sys.argv[3] if len(sys.argv) > 3 else "/usr/bin/promtool"
    with open(rules_path) as f:
        rules_doc = yaml.safe_load(f)
    with open(tests_path) as f:
        tests_doc = yaml.safe_load(f)
    rules_name = os.path.basename(rules_path)
    failures = coverage_problems(rules_doc, tests_doc)
    for p in failures:
        print("COVERAGE:", p)

    baseline = run_promtool(promtool, tests_path, rules_name, rules_doc)
    if baseline.returncode != 0:
        print("the unmodified rules (as re-serialised) fail their tests:\n" + baseline.stdout + baseline.stderr)
        return 1
    # One promtool per core: each is single-threaded and the mutants are independent.
    found = list(mutants(rules_doc))
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        verdicts = pool.map(lambda m: run_promtool(promtool, tests_path, rules_name, m[1]), found)
        for (description, _), r in zip(found, verdicts):
            caught = r.returncode != 0 and "FAILED" in r.stdout + r.stderr
            print(f"{'caught   ' if caught else 'SURVIVED '} {description}")
            if not caught:
                failures.append(f"mutant survived: {description}")
    print(f"{len(found)} mutants, {len(failures)} problems")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
