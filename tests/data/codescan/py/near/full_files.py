"""Report storage: names are generated server-side, user input only selects among them."""
import os
import tempfile
import uuid
from pathlib import Path

REPORT_DIR = Path(os.environ.get("REPORT_DIR", "/var/app/reports")).resolve()


def save_report(data: bytes) -> str:
    report_id = uuid.uuid4().hex
    (REPORT_DIR / f"{report_id}.pdf").write_bytes(data)
    return report_id


def open_report(report_id: str) -> bytes:
    uuid.UUID(report_id)  # raises ValueError for anything but a UUID
    return (REPORT_DIR / f"{report_id}.pdf").read_bytes()


def scratch_file(suffix=".tmp"):
    fd, path = tempfile.mkstemp(suffix=suffix, dir=REPORT_DIR)
    os.close(fd)
    return path


def cleanup(older_than_days: int = 30) -> int:
    import time
    cutoff = time.time() - older_than_days * 86400
    removed = 0
    for p in REPORT_DIR.glob("*.pdf"):
        if p.stat().st_mtime < cutoff:
            p.unlink()
            removed += 1
    return removed
