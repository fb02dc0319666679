"""What every result document shares: a frozen pydantic base, the JSON schema version, and
``Input``, a machine-file number as a computation used it (so JSON output shows its derivation).

JSON_SCHEMA_VERSION changes whenever a field's meaning or name changes in any ``--json`` document;
docs/schema/ is generated from the result models (docs/make_schemas.py).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

JSON_SCHEMA_VERSION = 4


class Result(BaseModel):
    """A result: immutable, and strict about its fields."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Input(Result):
    """A machine-file number as used: where it is in the file and where it comes from."""

    field: str
    value: float
    unit: str
    kind: Literal["spec", "measured"]
    source: str
    file: str | None = Field(default=None, description="the machine file the number is written in")
    line: int | None = Field(default=None, description="its line there (1-based)")


class CompiledCounts(Result):
    """What ptxas allocated for one compiled kernel (roofmodel.backends.triton_compile): the counts a
    prediction takes in place of the register rule's, and the toolchain that gave them."""

    registers: int = Field(description="registers per thread")
    spilled: int = Field(description="spilled registers per thread: the stack frame in 4-byte words")
    shared_bytes: int = Field(description="shared memory per CTA, bytes")
    instruction: Literal["tcgen05", "tcgen05.2sm", "wgmma", "mma.sync", "fma"] = Field(
        description="the MMA family in the PTX"
    )
    target: str = Field(description="ptxas's --gpu-name, e.g. sm_90a")
    triton: str = Field(description="Triton's version")
    ptxas: str = Field(description="the version of the ptxas Triton ran for the target (the counts are its cubin's)")
    loop_local_load_bytes: int | None = Field(
        default=None,
        description="local-memory bytes each thread loads in one pass of the main loop (its LDL in the SASS); "
        "none where no loop with an MMA was found",
    )
    loop_local_store_bytes: int | None = Field(
        default=None, description="local-memory bytes each thread stores in one pass of the main loop (its STL)"
    )
    loop_local_waits: int | None = Field(
        default=None,
        description="times per pass of the main loop a warp waits on its own local reloads, issuing in order "
        "(triton_compile.local_reload_waits)",
    )
    wgmma_waits_each: bool | None = Field(
        default=None,
        description="whether the main loop waits for each wgmma before the next issues (a wait to 0 after every one, "
        "triton_compile.wgmma_waits) rather than keeping a group in flight; none for a loop without wgmma",
    )
