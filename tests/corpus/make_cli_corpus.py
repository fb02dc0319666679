"""The hostile-input corpus of the command line: ``cases()``, which tests/test_hostile.py runs
(``python tests/corpus/make_cli_corpus.py [FILE.json]`` counts them, and writes them out to read).

Every case is a command line that must fail on its input: exit code 2, exactly one stderr line
starting ``roofmodel: error: `` that contains the case's ``expect`` fragment, no traceback, nothing
on stdout, and nothing written. A case may bring files (``files``: name -> text, or base64 after
``b64:``), which tests/test_hostile.py writes into an empty temporary directory, ``{dir}`` in the
arguments; ``{corpus}`` is this folder. The directory must hold exactly those files afterwards.

The cases, generated so that every command and every file the tool reads is covered:

- every option of every command with values its parser refuses (option_cases);
- what only the library can refuse: tiles that do not fit, clusters a GPU has not, kernels a
  preset cannot build (semantic_cases);
- usage: missing and unknown options, unknown commands, old and new spellings together (usage_cases);
- outputs: formats, suffixes, missing folders, directories, the same file twice (output_cases);
- files: gemm.csv, provenance.json and broad.csv for validate (and sweep's resume), rank's YAML and
  CSV, and the broken machine files of tests/corpus/machines under every command that reads one
  (file_cases).
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent

# ---------------------------------------------------------------------------------------------
# Valid inputs the cases start from

GEMM_CSV = (REPO / "docs" / "measurements" / "h100-2026-11-22" / "gemm.csv").read_text().splitlines()
GEMM_HEADER, GEMM_ROWS = GEMM_CSV[0], GEMM_CSV[1:4]
BROAD_CSV = (REPO / "docs" / "measurements" / "h100-2026-11-23" / "broad.csv").read_text().splitlines()
BROAD_HEADER, BROAD_ROWS = BROAD_CSV[0], [r for r in BROAD_CSV[1:] if ",ok," in r][:3]
PROVENANCE = (REPO / "docs" / "measurements" / "h100-2026-11-22" / "provenance.json").read_text()
CONFIGS_YAML = "- {BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, GROUP_M: 8}\n- {BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 64}\n"


def gemm_csv(*rows: str, header: str = GEMM_HEADER) -> str:
    return "\n".join([header, *rows]) + "\n"


def edit_row(row: str, header: str, **changes: str) -> str:
    """The row with the named columns replaced."""
    names = header.split(",")
    cells = row.split(",")
    for name, value in changes.items():
        cells[names.index(name)] = value
    return ",".join(cells)


# ---------------------------------------------------------------------------------------------
# Bad values per kind of option

BAD = {
    "size": ["0", "-5", "1.5", "abc", "", "1e3", "0x10", "٣", "2147483648", "9" * 40],
    "count": ["0", "-1", "two", "2.5", ""],
    "dtype": ["fp17", "int4", "", "fp 16"],
    "tile": ["128x", "0x128", "128x128x0", "axb", "128x128x64x2", "-64x64", ""],
    "pair": ["3", "1x2x3", "0x4", "ax4"],
    "raster": ["bogus", "grouped:0", "swizzle:3", "grouped", "swizzle:4:q", ""],
    "cluster": ["2by1", "0x1", "x", "1x1x1", ""],
    "clock": ["1e9", "0", "-1", "nan", "inf", "fast", "", "10001"],
    "source": ["best", "", "specs"],
    "a_major": ["n", "x"],
    "b_major": ["m", "x"],
    "format": ["gif", "jpg", ""],
    "space": ["cutlass", ""],
    "vary": ["x=1:2", "dram_bandwidth=4:1", "dram_bandwidth", "dram_bandwidth=a:b", "dram_bandwidth=0:1"],
    "steps": ["1", "0", "x"],
    "seconds": ["0", "-1", "nan", "x"],
    "kernel": ["nvcc", ""],
    "at_least_0": ["-1", "x", "1.5"],
    "acc": ["fp8", "x"],
    "levels": ["dram,l3", "l2,smem,rf", "smem"],
    "instruction": ["hmma", "wgmma.sp"],
    "regs": ["0", "-1", "300", "x"],
    "warps": ["0", "-2", "3", "x"],
    "machine": ["b300", "", "{dir}/missing.yaml", "{dir}"],
}

ANALYSIS = {"--machine": "machine", "--m": "size", "--n": "size", "--k": "size", "--dtype": "dtype",
            "--bandwidth": "source", "--compute": "source", "--clock": "clock", "--stages": "count",
            "--cluster": "cluster", "--raster": "raster"}  # fmt: skip
COMMANDS: dict[str, tuple[list[str], dict[str, list[str]], dict[str, str]]] = {
    # command: (valid arguments, files they need, option -> kind of bad value)
    "analyze": (
        ["analyze", "--machine", "h100", "--m", "256"],
        {},
        {
            **ANALYSIS,
            "--tile": "tile",
            "--reg-tile": "pair",
            "--levels": "levels",
            "--instruction": "instruction",
            "--clock-mhz": "clock",
            "--reg-overhead": "at_least_0",
            "--acc": "acc",
            "--warps": "warps",
            "--regs": "regs",
        },
    ),
    "raster": (
        ["raster", "--machine", "h100", "--m", "256"],
        {},
        {**ANALYSIS, "--tile": "tile", "--order": "raster", "--warps": "warps", "--regs": "regs", "--waves": "count"},
    ),
    "predict": (
        ["predict", "--machine", "h100", "--m", "256", "--tile", "64x64x64"],
        {},
        {
            **ANALYSIS,
            "--tile": "tile",
            "--kernel": "kernel",
            "--warps": "warps",
            "--regs": "regs",
            "--spilled": "at_least_0",
            "--a-major": "a_major",
            "--b-major": "b_major",
            "--reg-tile": "pair",
            "--instruction": "instruction",
        },
    ),
    "tune": (
        ["tune", "--machine", "h100", "--m", "256"],
        {},
        {k: v for k, v in ANALYSIS.items() if k not in ("--stages", "--cluster", "--raster")}
        | {
            "--top": "count",
            "--space": "space",
            "--instruction": "instruction",
            "--a-major": "a_major",
            "--b-major": "b_major",
        },
    ),
    "explore": (
        ["explore", "--machine", "t4", "--m", "256", "--vary", "sm_count=20:40", "--steps", "2"],
        {},
        {k: v for k, v in ANALYSIS.items() if k not in ("--stages", "--cluster", "--raster")}
        | {"--vary": "vary", "--steps": "steps", "--space": "space"},
    ),
    "rank": (
        ["rank", "--machine", "h100", "--configs", "{dir}/configs.yaml", "--m", "256"],
        {"configs.yaml": CONFIGS_YAML},
        {
            "--machine": "machine",
            "--m": "size",
            "--n": "size",
            "--k": "size",
            "--dtype": "dtype",
            "--a-major": "a_major",
            "--b-major": "b_major",
            "--compute": "source",
            "--clock": "clock",
            "--top": "count",
        },
    ),
    **{
        f"plot {kind}": (
            ["plot", kind, "--machine", "h100", "--m", "256", "-o", "{dir}/out.png"],
            {},
            {**ANALYSIS, "--format": "format"}
            | ({"--tile": "tile"} if kind != "tiles" else {})
            | ({"--waves": "count", "--order": "raster"} if kind == "raster" else {}),
        )
        for kind in ("roofline", "budget", "tiles", "raster")
    },
    "measure": (
        ["measure", "--machine", "h100", "--m", "256", "--tile", "64x64x64"],
        {},
        {
            "--machine": "machine",
            "--m": "size",
            "--n": "size",
            "--k": "size",
            "--dtype": "dtype",
            "--tile": "tile",
            "--raster": "raster",
            "--group-m": "count",
            "--warps": "warps",
            "--stages": "count",
        },
    ),
    "sweep": (["sweep", "--out", "{dir}/sweep"], {}, {"--dtype": "dtype", "--budget-s": "seconds"}),
    "calibrate": (["calibrate", "--machine", "h100", "-o", "{dir}/overlay.yaml"], {}, {"--machine": "machine"}),
    "validate": (
        ["validate", "{dir}/run"],
        {"run/gemm.csv": gemm_csv(*GEMM_ROWS), "run/provenance.json": PROVENANCE},
        {"--machine": "machine", "--clock": "clock"},
    ),
}
EXTRA_BAD = {  # values only some commands refuse
    ("predict", "--tile"): ["128x128"],
    ("measure", "--tile"): ["128x128", "96x96x64"],
    ("measure", "--dtype"): ["fp8", "int8", "fp64"],
    ("sweep", "--dtype"): ["fp8", "int8"],
    ("measure", "--raster"): ["col", "swizzle:2"],
    ("validate", "--clock"): ["sustained"],  # no clocks.sustained on the H100
    ("analyze", "--clock"): ["sustained"],
}


def case(name: str, args: list[str], expect: str, files: dict[str, str] | None = None) -> dict[str, Any]:
    return {"id": name, "args": args, "expect": expect, "files": files or {}}


def _expect(option: str, command: str, value: str) -> str:
    """What the error line must name: the option as typed (the machine's value for --machine)."""
    if option == "--machine":
        return {"b300": "unknown machine", "": "--machine", ",": "at least one machine",
                "{dir}": "is a directory"}.get(value, "no such file")  # fmt: skip
    if command == "validate" and option == "--clock" and value not in BAD["clock"]:
        return "--clock"
    return option


def option_cases() -> list[dict[str, Any]]:
    out = []
    for command, (base, files, options) in COMMANDS.items():
        for option, kind in options.items():
            for value in BAD[kind] + EXTRA_BAD.get((command, option), []):
                if option == "--machine" and command == "plot roofline" and value == "":
                    value = ","  # roofline takes a list of machines
                args = [*base, option, value]
                out.append(case(f"{command} {option} {value!r}", args, _expect(option, command, value), files))
    return out


def semantic_cases() -> list[dict[str, Any]]:
    a = ["analyze", "--machine"]
    p = ["predict", "--machine", "h100", "--m", "4096", "--tile", "128x128x64"]
    rows = [
        ("tile over shared memory", [*a, "h100", "--m", "64", "--tile", "1024x1024"], "--tile 1024x1024"),
        ("cluster on the A100", [*a, "a100", "--m", "64", "--cluster", "2x1"], "no thread block clusters"),
        ("cluster over the limit", [*a, "h100", "--m", "4096", "--cluster", "8x4"], "--cluster 8x4"),
        ("superm that does not divide", [*a, "h100", "--m", "64", "--raster", "superm:3"], "divide"),
        ("tf32 on the T4", [*a, "t4", "--m", "64", "--dtype", "tf32"], "no tf32 pipe"),
        ("wgmma on the A100", [*a, "a100", "--m", "64", "--instruction", "wgmma"], "wgmma"),
        ("fp16 accumulator of fp32", [*a, "h100", "--m", "64", "--dtype", "fp32", "--acc", "fp16"], "--acc fp16"),
        ("raster on an old spelling", ["raster", "--machine", "h100", "--m", "64", "--order", "superm:3"], "--order"),
        ("sustained clock absent", ["tune", "--machine", "h100", "--m", "256", "--clock", "sustained"], "--clock"),
        ("spilled without regs", [*p, "--spilled", "3"], "--spilled"),
        ("triton kernel with a cluster", [*p, "--kernel", "triton", "--cluster", "2x1"], "--kernel triton"),
        ("triton kernel swizzled", [*p, "--kernel", "triton", "--raster", "swizzle:2"], "row or grouped:G"),
        ("triton block not a power of two", [*p, "--kernel", "triton", "--tile", "96x128x64"], "power of two"),
        ("cutlass kernel with warps", [*p, "--kernel", "cutlass", "--warps", "4"], "--kernel cutlass"),
        ("cutlass reg-tile on sm90", [*p, "--kernel", "cutlass", "--reg-tile", "64x64"], "--kernel cutlass"),
        ("predict regs over the limit", [*p, "--regs", "300"], "--regs"),
        ("predict a-major refused", [*p, "--a-major", "n"], "--a-major"),
        ("cluster that does not divide the grid", [*p, "--m", "384", "--cluster", "4x1"], "--cluster 4x1"),
        ("rank n without m", ["rank", "--machine", "h100", "--configs", "{dir}/c.yaml", "--n", "64"], "go with --m"),
        ("plot raster too large", ["plot", "raster", "--machine", "h100", "--m", "65536", "-o", "{dir}/x.png"],
         "too large to draw"),
        ("measure warps not a power of two", ["measure", "--machine", "h100", "--m", "256", "--tile", "64x64x64",
                                              "--warps", "3"], "3"),
        ("explore steps one", ["explore", "--machine", "t4", "--m", "256", "--vary", "sm_count=20:40", "--steps", "1"],
         "--steps"),
    ]  # fmt: skip
    return [case(name, args, expect, {"c.yaml": CONFIGS_YAML}) for name, args, expect in rows]


def usage_cases() -> list[dict[str, Any]]:
    out = []
    for command, (base, files, _) in COMMANDS.items():
        out.append(case(f"{command} unknown option", [*base, "--bogus", "1"], "--bogus", files))
        out.append(case(f"{command} extra argument", [*base, "surplus"], "surplus", files))
    required = {
        "analyze": ("--machine", "--m"),
        "raster": ("--machine", "--m"),
        "predict": ("--machine", "--m", "--tile"),
        "tune": ("--machine", "--m"),
        "explore": ("--machine", "--m", "--vary"),
        "rank": ("--machine", "--configs"),
        "plot roofline": ("--machine", "--m", "-o"),
        "plot budget": ("--machine", "--m", "-o"),
        "plot tiles": ("--machine", "--m", "-o"),
        "plot raster": ("--machine", "--m", "-o"),
        "measure": ("--machine", "--m", "--tile"),
        "sweep": ("--out",),
        "calibrate": ("--machine", "-o"),
        "validate": ("{dir}/run",),
    }
    for command, options in required.items():
        base, files, _ = COMMANDS[command]
        for option in options:
            if option.startswith("{"):
                args = [a for a in base if a != option]
                out.append(case(f"{command} without RESULTS", args, "RESULTS", files))
                continue
            i = base.index(option)
            args = base[:i] + base[i + 2 :]
            expect = "missing option -o/--out" if option in ("-o", "--out") else f"missing option {option}"
            out.append(case(f"{command} without {option}", args, expect, files))
    both = [
        ("raster --order and --raster", ["raster", "--machine", "h100", "--m", "64", "--order", "row", "--raster",
                                         "col"], "--order"),
        ("plot raster --order and --raster", ["plot", "raster", "--machine", "h100", "--m", "64", "--raster", "col",
                                              "--order", "row", "-o", "{dir}/x.png"], "--order"),
        ("analyze --clock-mhz and --clock", ["analyze", "--machine", "h100", "--m", "64", "--clock", "1000",
                                             "--clock-mhz", "1000"], "--clock-mhz"),
        ("plot -o and --output", ["plot", "budget", "--machine", "h100", "--m", "64", "-o", "{dir}/a.png",
                                  "--output", "{dir}/b.png"], "--output"),
        ("measure --group-m and --raster", ["measure", "--machine", "h100", "--m", "64", "--tile", "64x64x64",
                                            "--group-m", "4", "--raster", "row"], "--group-m"),
        ("no such command", ["analyse", "--machine", "h100"], "did you mean 'analyze'"),
        ("no such plot", ["plot", "rooflines", "--machine", "h100"], "rooflines"),
        ("nothing at all after plot --bogus", ["plot", "--bogus"], "--bogus"),
        ("misspelt option", ["analyze", "--machine", "h100", "--m", "64", "--tiles", "64x64"], "did you mean --tile"),
        ("option without a value", ["analyze", "--machine", "h100", "--m"], "--m"),
        ("show-machine without a name", ["show-machine"], "NAME"),
        ("show-machine unknown", ["show-machine", "b300"], "unknown machine"),
        ("show-machine a directory", ["show-machine", "{dir}"], "is a directory"),
        ("machines extra", ["machines", "extra"], "extra"),
        ("machines --json=1", ["machines", "--json=1"], "--json"),
    ]  # fmt: skip
    out += [case(name, args, expect) for name, args, expect in both]
    return out


def output_cases() -> list[dict[str, Any]]:
    out = []
    for kind in ("roofline", "budget", "tiles", "raster"):
        base = ["plot", kind, "--machine", "h100", "--m", "256"]
        rows = [
            ("format clash", ["--format", "png", "-o", "{dir}/x.svg"], "--format png with -o"),
            ("format clash, long spelling", ["--format", "pdf", "--out", "{dir}/x.png"], "with --out"),
            ("unknown suffix", ["-o", "{dir}/x.gif"], "-o {dir}/x.gif: cannot tell the format"),
            ("unknown suffix, old spelling", ["--output", "{dir}/x.jpeg"], "--output"),
            ("missing folder", ["-o", "{dir}/no/x.png"], "does not exist"),
            ("onto a directory", ["-o", "{dir}/sub"], "is a directory"),
            ("empty name", ["-o", ""], "give a file name"),
        ]
        for name, extra, expect in rows:
            out.append(case(f"plot {kind} {name}", [*base, *extra], expect, {"sub/keep": "x"}))
    out += [
        case("calibrate into a missing folder", ["calibrate", "--machine", "h100", "-o", "{dir}/no/x.yaml"],
             "does not exist"),
        case("calibrate onto a directory", ["calibrate", "--machine", "h100", "--out", "{dir}/sub"], "is a directory",
             {"sub/keep": "x"}),
        case("sweep onto a file", ["sweep", "--out", "{dir}/file"], "not a directory", {"file": "x"}),
        case("sweep into a missing folder", ["sweep", "-o", "{dir}/no/sweep"], "does not exist"),
    ]  # fmt: skip
    run = {"run/gemm.csv": gemm_csv(*GEMM_ROWS), "run/provenance.json": PROVENANCE, "sub/keep": "x"}
    v = ["validate", "{dir}/run"]
    rows = [
        ("report into a missing folder", ["--report", "{dir}/no/r.md"], "--report {dir}/no/r.md"),
        ("report onto a directory", ["--report", "{dir}/sub"], "--report {dir}/sub: is a directory"),
        ("png and a report into a missing folder", ["--png", "{dir}/x.png", "--report", "{dir}/no/r.md"], "--report"),
        ("png onto a directory", ["--png", "{dir}/sub"], "--png"),
        ("png with a jpg suffix", ["--png", "{dir}/x.jpg"], "--png {dir}/x.jpg"),
        ("png-tflops with a gif suffix", ["--png-tflops", "{dir}/x.gif"], "--png-tflops"),
        ("png and png-tflops the same file", ["--png", "{dir}/x.png", "--png-tflops", "{dir}/x.png"], "twice"),
        ("report and png the same file", ["--png", "{dir}/x.png", "--report", "{dir}/x.png"], "twice"),
        ("png into a missing folder", ["--png-tflops", "{dir}/no/x.png", "--report", "{dir}/r.md"], "--png-tflops"),
        ("report empty name", ["--report", ""], "--report"),
    ]
    out += [case(f"validate {name}", [*v, *extra], expect, run) for name, extra, expect in rows]
    return out


# ---------------------------------------------------------------------------------------------
# Files


def _row(**changes: str) -> str:
    return edit_row(GEMM_ROWS[0], GEMM_HEADER, **changes)


GEMM_CASES = {
    # name: (gemm.csv text, expected fragment)
    "wrong header": ("a,b,c\n1,2,3\n", "missing columns: m, n, k"),
    "empty": ("", "an empty file"),
    "header only": (gemm_csv(), "no records"),
    "short row": (gemm_csv(",".join(GEMM_ROWS[0].split(",")[:5])), "line 2: 5 fields, the header has 18"),
    "long row": (gemm_csv(GEMM_ROWS[0] + ",1,2"), "line 2: 20 fields"),
    "dtype fp17": (gemm_csv(_row(dtype="fp17")), "line 2: dtype must be one of"),
    "dtype int8": (gemm_csv(_row(dtype="int8")), "what the Triton kernel runs"),
    "group_m zero": (gemm_csv(_row(group_m="0")), "group_m must be >= 1"),
    "k negative": (gemm_csv(GEMM_ROWS[1], _row(k="-5")), "line 3: k must be >= 1 (got -5)"),
    "m zero": (gemm_csv(_row(m="0")), "m must be >= 1"),
    "block_n negative": (gemm_csv(_row(block_n="-64")), "block_n must be >= 1"),
    "num_warps zero": (gemm_csv(_row(num_warps="0")), "num_warps"),
    "num_warps 64": (gemm_csv(_row(num_warps="64")), "num_warps must be <= 32"),
    "num_stages zero": (gemm_csv(_row(num_stages="0")), "num_stages"),
    "registers negative": (gemm_csv(_row(registers_per_thread="-1")), "registers_per_thread"),
    "shared negative": (gemm_csv(_row(shared_bytes="-1")), "shared_bytes"),
    "time zero": (gemm_csv(_row(time_ms="0")), "time_ms must be a finite number > 0"),
    "time nan": (gemm_csv(_row(time_ms="nan")), "time_ms"),
    "tflops inf": (gemm_csv(_row(tflops="inf")), "tflops"),
    "tflops negative": (gemm_csv(_row(tflops="-3")), "tflops"),
    "rel_error nan": (gemm_csv(_row(rel_error="nan")), "rel_error"),
    "dram bytes negative": (gemm_csv(_row(dram_read_bytes="-1")), "dram_read_bytes"),
    "l2 hit over 100": (gemm_csv(_row(l2_hit_rate_pct="150")), "l2_hit_rate_pct must be <= 100"),
    "m not a number": (gemm_csv(_row(m="many")), "line 2: m:"),
    "m fractional": (gemm_csv(_row(m="2048.5")), "line 2: m:"),
    "time not a number": (gemm_csv(_row(time_ms="fast")), "time_ms"),
    "empty required cell": (gemm_csv(_row(time_ms="")), "time_ms: empty"),
    "huge m": (gemm_csv(_row(m="9" * 40)), "line 2"),
    "not utf-8": ("b64:" + base64.b64encode(b"m,n\n\xff\xfe\x00\x01\n").decode(), "cannot read"),
    "nul bytes": ("b64:" + base64.b64encode((GEMM_HEADER + "\n1,\x00,3\n").encode()).decode(), "gemm.csv"),
}
PROVENANCE_CASES = {
    "malformed": ('{"device": "H100",', "malformed JSON"),
    "a list": ("[1, 2]", "expected a JSON object"),
    "a string": ('"H100"', "expected a JSON object"),
    "empty": ("", "malformed JSON"),
    "not utf-8": ("b64:" + base64.b64encode(b"\xff\xfe{}").decode(), "cannot read"),
}
BROAD_CASES = {
    "missing columns": ("set,shape\nx,y\n", "missing columns"),
    "dtype fp17": (gemm_csv(BROAD_ROWS[0].replace(",fp16,", ",fp17,", 1), header=BROAD_HEADER), "line 2: dtype"),
    "k negative": (gemm_csv(edit_row(BROAD_ROWS[0], BROAD_HEADER, k="-5"), header=BROAD_HEADER), "line 2"),
    "group_m zero": (gemm_csv(edit_row(BROAD_ROWS[0], BROAD_HEADER, group_m="0"), header=BROAD_HEADER), "group_m"),
    "time zero": (gemm_csv(edit_row(BROAD_ROWS[0], BROAD_HEADER, time_ms="0"), header=BROAD_HEADER), "time_ms"),
    "spills negative": (
        gemm_csv(edit_row(BROAD_ROWS[0], BROAD_HEADER, spilled_registers="-3"), header=BROAD_HEADER),
        "spilled_registers",
    ),
    "instruction unknown": (
        gemm_csv(edit_row(BROAD_ROWS[0], BROAD_HEADER, instruction="hmma"), header=BROAD_HEADER),
        "instruction",
    ),
    "a_major unknown": (gemm_csv(edit_row(BROAD_ROWS[0], BROAD_HEADER, a_major="n"), header=BROAD_HEADER), "a_major"),
    "no timed rows": (gemm_csv(header=BROAD_HEADER), "no timed records"),
    "not utf-8": ("b64:" + base64.b64encode(b"set,shape\n\xff\n").decode(), "cannot read"),
}
CONFIG_CASES = {
    # name: (file name, text, expected fragment)
    "empty yaml": ("c.yaml", "", "expected a list of mappings"),
    "broken yaml": ("c.yaml", "- {BLOCK_M: [", "not valid YAML"),
    "yaml scalar": ("c.yaml", "42\n", "expected a list of mappings"),
    "yaml list of scalars": ("c.yaml", "- 1\n- 2\n", "expected a list of mappings"),
    "kwargs not a mapping": ("c.yaml", "- {BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, kwargs: [1]}", "kwargs"),
    "block missing": ("c.yaml", "- {BLOCK_N: 64, BLOCK_K: 32}", "row 1: BLOCK_M is missing"),
    "block infinite": ("c.yaml", "- {BLOCK_M: .inf, BLOCK_N: 64, BLOCK_K: 32}", "must be finite"),
    "block not a power of two": ("c.yaml", "- {BLOCK_M: 48, BLOCK_N: 64, BLOCK_K: 32}", "power of two"),
    "warps zero": ("c.yaml", "- {BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, num_warps: 0}", "num_warps"),
    "warps text": ("c.yaml", "- {BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, num_warps: many}", "not a number"),
    "regs text": ("c.yaml", "- {BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, registers_per_thread: abc}", "not a number"),
    "spills negative": (
        "c.yaml",
        "- {BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, registers_per_thread: 100, spilled_registers: -5}",
        "spilled_registers",
    ),
    "faster than the peak": ("c.yaml", "- {BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, time_ms: 0.000001}", "above the"),
    "time negative": ("c.yaml", "- {BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, time_ms: -1}", "time_ms"),
    "python tag": ("c.yaml", "- !!python/object/apply:os.system ['true']", "not valid YAML"),
    "csv empty": ("c.csv", "", "no configurations"),
    "csv header only": ("c.csv", "BLOCK_M,BLOCK_N,BLOCK_K\n", "no configurations"),
    "csv block missing": ("c.csv", "BLOCK_N,BLOCK_K\n64,32\n", "BLOCK_M is missing"),
    "csv fractional block": ("c.csv", "BLOCK_M,BLOCK_N,BLOCK_K\n64.5,64,32\n", "whole number"),
    "csv status failed only": ("c.csv", "BLOCK_M,BLOCK_N,BLOCK_K,status\n64,64,32,failed\n", "no configurations"),
    "csv not utf-8": ("c.csv", "b64:" + base64.b64encode(b"BLOCK_M\n\xff\n").decode(), "cannot read"),
    "csv row without a problem dtype": ("c.csv", "BLOCK_M,BLOCK_N,BLOCK_K,m,n,k,dtype\n64,64,32,64,64,64,fp17\n",
                                        "dtype 'fp17'"),
}  # fmt: skip


def file_cases() -> list[dict[str, Any]]:
    out = []
    for name, (text, expect) in GEMM_CASES.items():
        files = {"run/gemm.csv": text, "run/provenance.json": PROVENANCE}
        out.append(case(f"validate gemm.csv {name}", ["validate", "{dir}/run"], expect, files))
        out.append(case(f"validate gemm.csv {name}, as the file", ["validate", "{dir}/run/gemm.csv"], expect, files))
        if name not in ("header only",):  # sweep resumes any readable file, empty or not
            out.append(case(f"sweep resuming gemm.csv {name}", ["sweep", "--out", "{dir}/run"], expect, files))
    for name, (text, expect) in PROVENANCE_CASES.items():
        files = {"run/gemm.csv": gemm_csv(*GEMM_ROWS), "run/provenance.json": text}
        out.append(case(f"validate provenance.json {name}", ["validate", "{dir}/run"], expect, files))
        broad = {"b/broad.csv": gemm_csv(*BROAD_ROWS, header=BROAD_HEADER), "b/provenance.json": text}
        out.append(case(f"validate broad provenance.json {name}", ["validate", "{dir}/b"], expect, broad))
    out.append(case("validate broad provenance.json without the device",
                    ["validate", "{dir}/b"], "missing device",
                    {"b/broad.csv": gemm_csv(*BROAD_ROWS, header=BROAD_HEADER), "b/provenance.json": '{"date": "x"}'}))  # fmt: skip
    for name, (text, expect) in BROAD_CASES.items():
        files = {"b/broad.csv": text}
        out.append(case(f"validate broad.csv {name}", ["validate", "{dir}/b"], expect, files))
    good_broad = {"b/broad.csv": gemm_csv(*BROAD_ROWS, header=BROAD_HEADER)}
    out += [
        case("validate broad --clock rated", ["validate", "{dir}/b", "--clock", "rated"], "--clock rated", good_broad),
        case("validate broad --clock sustained", ["validate", "{dir}/b", "--clock", "sustained"], "no clocks.sustained",
             good_broad),
        case("validate broad with --png", ["validate", "{dir}/b", "--png", "{dir}/x.png"], "--png", good_broad),
        case("validate a missing path", ["validate", "{dir}/nothing"], "no such file or directory"),
        case("validate an empty directory", ["validate", "{dir}/empty"], "no gemm.csv", {"empty/keep": ""}),
        case("validate gemm.csv a directory", ["validate", "{dir}/run"], "no gemm.csv", {"run/gemm.csv/keep": ""}),
    ]  # fmt: skip
    for name, (file, text, expect) in CONFIG_CASES.items():
        args = ["rank", "--machine", "h100", "--configs", f"{{dir}}/{file}", "--m", "256"]
        if "problem" in name:
            args = args[:-2]
        out.append(case(f"rank {name}", args, expect, {file: text}))
    out += [
        case("rank configs missing", ["rank", "--machine", "h100", "--configs", "{dir}/none.yaml"], "cannot read"),
        case("rank configs a directory", ["rank", "--machine", "h100", "--configs", "{dir}/d"], "cannot read",
             {"d/keep": ""}),
    ]  # fmt: skip
    machines = sorted((HERE / "machines").glob("*.yaml"))
    readers = {
        "analyze": ["analyze", "--machine", "M", "--m", "256"],
        "predict": ["predict", "--machine", "M", "--m", "256", "--tile", "64x64x64"],
        "plot budget": ["plot", "budget", "--machine", "M", "--m", "256", "-o", "{dir}/x.png"],
        "measure": ["measure", "--machine", "M", "--m", "256", "--tile", "64x64x64"],
        "calibrate": ["calibrate", "--machine", "M", "-o", "{dir}/x.yaml"],
        "rank": ["rank", "--machine", "M", "--configs", "{dir}/c.yaml", "--m", "256"],
        "validate": ["validate", "{dir}/run", "--machine", "M"],
        "tune": ["tune", "--machine", "M", "--m", "256"],
        "raster": ["raster", "--machine", "M", "--m", "256"],
    }
    run = {"run/gemm.csv": gemm_csv(*GEMM_ROWS), "c.yaml": CONFIGS_YAML}
    for i, path in enumerate(machines):
        expect = path.read_text(errors="replace").split("\n", 1)[0].removeprefix("# expect: ")
        # every broken machine file under two commands, turn by turn, so that each command reads many
        for command in (list(readers)[i % len(readers)], list(readers)[(i + 4) % len(readers)]):
            args = [f"{{corpus}}/machines/{path.name}" if a == "M" else a for a in readers[command]]
            out.append(case(f"{command} machine file {path.stem}", args, expect, run))
    return out


def cases() -> list[dict[str, Any]]:
    found = option_cases() + semantic_cases() + usage_cases() + output_cases() + file_cases()
    ids = [c["id"] for c in found]
    assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]
    return found


def main() -> None:
    import sys
    from collections import Counter

    found = cases()
    by_command = Counter(c["args"][0] if c["args"][0] != "plot" else " ".join(c["args"][:2]) for c in found)
    print(f"{len(found)} cases: " + ", ".join(f"{n} {c}" for c, n in sorted(by_command.items())))
    if len(sys.argv) > 1:
        Path(sys.argv[1]).write_text(json.dumps(found, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
