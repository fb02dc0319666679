"""roofmodel.files: a file is written whole or not at all, with a new file's usual mode."""

from __future__ import annotations

import os
import stat

import pytest

from roofmodel.files import staged_beside, write_atomically


def test_a_file_is_replaced_whole_with_the_mode_a_new_file_gets(tmp_path):
    target = tmp_path / "out.csv"
    target.write_text("old\n")
    write_atomically(target, "a,b\n1,2\n")
    assert target.read_text() == "a,b\n1,2\n"
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]  # no temporary file left


def test_a_failed_rename_leaves_the_target_as_it_was_and_no_temporary_file(tmp_path):
    target = tmp_path / "folder"
    target.mkdir()
    (target / "inside").write_text("x")  # a non-empty folder cannot be replaced by a file
    with pytest.raises(OSError):
        write_atomically(target, b"data")
    assert target.is_dir() and sorted(p.name for p in tmp_path.iterdir()) == ["folder"]
    staged = staged_beside(tmp_path / "x.txt", b"abc")
    assert staged.parent == tmp_path and staged.read_bytes() == b"abc" and staged.name.startswith(".roofmodel-")
