UPLOAD_DIR = "/srv/app/uploads"


@app.post("/upload")
async def upload(file: UploadFile = File(...)):
    destination = os.path.join(UPLOAD_DIR, file.filename)
    with open(destination, "wb") as out:
        shutil.copyfileobj(file.file, out)
    return {"filename": file.filename}
