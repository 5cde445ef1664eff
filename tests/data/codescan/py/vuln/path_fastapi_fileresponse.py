@router.get("/files/{path:path}")
async def serve(path: str):
    full = BASE_DIR / path
    return FileResponse(full)
