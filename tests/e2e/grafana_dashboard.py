"""Reading deploy/grafana/jvmsight-dashboard.json the way Grafana would: its
panels' queries, its template variables, and variable substitution."""
import json
import re

# What Grafana puts for its built-in interval variables, for a Prometheus that
# scrapes every second: $__rate_interval is at least four scrape intervals.
BUILTIN_INTERVALS = {"__rate_interval": "10s", "__interval": "2s", "__range": "1m"}

PROMQL_WORDS = {"and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring", "group_left",
                "group_right", "inf", "nan", "atan2"}


def load(path):
    with open(path) as f:
        return json.load(f)


def panels(dashboard):
    """Every panel, including those inside collapsed rows."""
    for p in dashboard.get("panels", []):
        yield p
        for inner in p.get("panels", []):
            yield inner


def queries(dashboard):
    """(panel title, refId, expr) for every query of every panel."""
    for p in panels(dashboard):
        for t in p.get("targets", []):
            if t.get("expr"):
                yield p.get("title", "?"), t.get("refId", "?"), t["expr"]


def variables(dashboard):
    return {v["name"]: v for v in dashboard.get("templating", {}).get("list", [])}


def regex_escape(value):
    """Grafana's escaping of a multi-value variable in a regex matcher."""
    return re.sub(r"([\\^$.|?*+()\[\]{}])", r"\\\\\1", value)


def multi_value(values):
    """How Grafana writes several selected values of a variable into a Prometheus query."""
    escaped = [regex_escape(v) for v in values]
    return escaped[0] if len(escaped) == 1 else "(" + "|".join(escaped) + ")"


def substitute(expr, values):
    """Replaces $name, ${name} and ${name:format} by values[name] (a ready string)."""
    all_values = dict(BUILTIN_INTERVALS)
    all_values.update(values)

    def repl(m):
        name = m.group(1) or m.group(2)
        if name not in all_values:
            raise KeyError(f"no value for variable ${name} in: {expr}")
        return all_values[name]

    return re.sub(r"\$\{(\w+)(?::\w+)?\}|\$(\w+)", repl, expr)


def label_values_query(definition):
    """label_values(<selector>, <label>) -> (selector, label)."""
    m = re.fullmatch(r"\s*label_values\((.*),\s*(\w+)\s*\)\s*", definition)
    if not m:
        raise ValueError(f"not a label_values(selector, label) query: {definition}")
    return m.group(1).strip(), m.group(2)


def metric_names(expr):
    """Metric names a PromQL expression selects (not functions, labels or keywords)."""
    e = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)
    e = re.sub(r"\{[^}]*\}", " ", e)
    e = re.sub(r"\[[^\]]*\]", " ", e)
    e = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", e)
    names = set()
    for m in re.finditer(r"(?<![\w.$])([a-zA-Z_:][\w:]*)(\s*\()?", e):
        if m.group(2) or m.group(1) in PROMQL_WORDS:
            continue
        names.add(m.group(1))
    return names
