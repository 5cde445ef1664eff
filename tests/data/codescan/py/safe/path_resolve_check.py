def read_report(name: str) -> str:
    base = Path("/var/app/reports").resolve()
    target = (base / name).resolve()
    if not target.is_relative_to(base):
        raise PermissionError(name)
    return target.read_text()
