"""Regenerate the hostile machine-file corpus from machines/h100.yaml (python tests/corpus/make_corpus.py).

Each file's first line is '# expect: <fragment>', the part of the one-line error it must produce.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
H100 = (HERE.parent.parent / "machines" / "h100.yaml").read_text()
QTY = "value: 3350, unit: GB/s"

CASES = {
    # syntax
    "truncated-flow": (H100.split("unit: MHz")[0], "malformed YAML"),
    "tab-indent": ("name: x\n\tsm_count: 3\n", "malformed YAML"),
    "unclosed-quote": ('name: "H100\n', "malformed YAML"),
    "list-top": ("- a\n- b\n", "top level"),
    "scalar-top": ("42\n", "top level"),
    "empty": ("", "top level"),
    "only-comments": ("# nothing here\n", "top level"),
    "python-object-tag": (
        H100.replace("name: NVIDIA H100 SXM5 80GB", "name: !!python/object/apply:os.system ['true']"),
        "malformed YAML",
    ),
    "python-name-tag": (
        H100.replace("architecture: Hopper", "architecture: !!python/name:os.system"),
        "malformed YAML",
    ),
    "binary-tag": (H100.replace("architecture: Hopper", "architecture: !!binary aGVsbG8="), "architecture"),
    "duplicate-anchor-alias-bomb": (
        "a: &a [x, x, x]\nb: &b [*a, *a, *a]\nc: [*b, *b, *b]\n",
        "required field is missing",
    ),
    # schema
    "missing-sm-count": (H100.replace("sm_count:", "sm_kount:", 1), "required field is missing"),
    "unknown-top-key": (
        H100.replace("architecture: Hopper", "architecture: Hopper\ncolour: green"),
        "colour: unknown key",
    ),
    "unknown-quantity-key": (H100.replace(QTY, QTY + ", colour: red"), "unknown key"),
    "negative": (H100.replace(QTY, "value: -3350, unit: GB/s"), "> 0"),
    "zero": (H100.replace(QTY, "value: 0, unit: GB/s"), "> 0"),
    "nan": (H100.replace(QTY, "value: .nan, unit: GB/s"), "finite"),
    "inf": (H100.replace(QTY, "value: .inf, unit: GB/s"), "finite"),
    "overflow": (H100.replace(QTY, "value: 1.0e+400, unit: GB/s"), "finite"),
    "yaml11-exponent-string": (H100.replace(QTY, "value: 1e400, unit: GB/s"), "valid number"),
    "string-number": (H100.replace(QTY, "value: fast, unit: GB/s"), "memory.dram.bandwidth.spec.value"),
    "bool-number": (H100.replace(QTY, "value: true, unit: GB/s"), "memory.dram.bandwidth.spec.value"),
    "list-number": (H100.replace(QTY, "value: [1, 2], unit: GB/s"), "memory.dram.bandwidth.spec.value"),
    "wrong-unit": (H100.replace(QTY, "value: 3350, unit: furlongs"), "memory.dram.bandwidth.spec.unit"),
    "capacity-unit-for-bandwidth": (H100.replace(QTY, "value: 3350, unit: GiB"), "memory.dram.bandwidth.spec.unit"),
    "empty-source": (H100.replace('source: "H100 SXM5 datasheet (3.35 TB/s HBM3)"', 'source: ""'), "source"),
    "kind-typo": (
        H100.replace(
            'kind: spec, source: "H100 SXM5 datasheet (3.35', 'kind: datasheet, source: "H100 SXM5 datasheet (3.35'
        ),
        "kind",
    ),
    "spec-marked-measured": (
        H100.replace("value: 3350, unit: GB/s, kind: spec", "value: 3350, unit: GB/s, kind: measured"),
        "kind must be 'spec'",
    ),
    "fractional-sms": (H100.replace("value: 132, unit: SMs", "value: 131.5, unit: SMs"), "whole number"),
    "bad-compute-capability": (
        H100.replace('compute_capability: "9.0"', 'compute_capability: "nine"'),
        "compute_capability",
    ),
    "unknown-dtype": (H100.replace("  fp64:\n", "  fp6:\n", 1), "compute.fp6"),
    "no-instructions": (H100.replace("      - {family: fma, shape: FFMA, operands_from: rf}\n", "", 1), "instructions"),
    "mma-from-smem": (
        H100.replace(
            "{family: mma.sync, shape: m16n8k8, operands_from: rf}",
            "{family: mma.sync, shape: m16n8k8, operands_from: smem}",
        ),
        "operands_from must be 'rf'",
    ),
    "block-smem-over-sm": (
        H100.replace("value: 227, unit: KiB", "value: 300, unit: KiB"),
        "max_per_block must not exceed",
    ),
    "l2-reuse-over-capacity": (
        H100.replace("reuse_capacity: {value: 29.3, unit: MiB", "reuse_capacity: {value: 60, unit: MiB"),
        "reuse_capacity must be less than capacity",
    ),
    "dram-requests-without-measured": (
        H100.replace(
            "    latency: {value: 288.1, unit: ns,",
            "    requests_per_sector: {value: 0.3, unit: requests/sector, kind: measured, source: x}\n"
            "    latency: {value: 288.1, unit: ns,",
        )
        .replace(H100.split("measured: {value: 3067, unit: GB/s")[1].split("\n")[0], "")
        .replace("      measured: {value: 3067, unit: GB/s", ""),
        "requests_per_sector is read against bandwidth.measured",
    ),
    "rated-without-any": (
        H100.replace(
            """    bandwidth:
      measured: {value: 3.6, unit: TB/s""",
            """    bandwidth: {}
    old:
      measured: {value: 3.6, unit: TB/s""",
        ),
        "l2",
    ),
    "schema-version-2": (H100.replace("schema_version: 1", "schema_version: 2"), "schema_version"),
    # base chains
    "base-unknown": ("base: b300\nname: x\n", "unknown machine 'b300'"),
    "base-not-a-string": ("base: [h100]\nname: x\n", "base: must be a machine name or path"),
    "base-missing-file": ("base: ./does-not-exist.yaml\nname: x\n", "no such file"),
    "base-self-loop": ("base: base-self-loop.yaml\nname: x\n", "base chain loops"),
    "base-partial-quantity": ("base: h100\nsm_count: {value: 114}\n", "required field is missing"),
    "base-bad-override": (
        "base: h100\nmemory:\n  dram:\n    bandwidth:\n      measured: {value: -1, unit: GB/s, kind: measured, source: x}\n",
        "> 0",
    ),
}


def main() -> None:
    out = HERE / "machines"
    out.mkdir(exist_ok=True)
    for old in out.glob("*.yaml"):
        old.unlink()
    for name, (text, expect) in CASES.items():
        (out / f"{name}.yaml").write_text(f"# expect: {expect}\n{text}")
    (out / "not-utf8.yaml").write_bytes(b"# expect: cannot read\nname: \xff\xfe\n")
    print(f"{len(CASES) + 1} files in {out}")


if __name__ == "__main__":
    main()
