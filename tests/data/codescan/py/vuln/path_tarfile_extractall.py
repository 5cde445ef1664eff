def restore_backup(upload):
    tmp = tempfile.mkdtemp()
    upload.save(os.path.join(tmp, "backup.tar.gz"))
    with tarfile.open(os.path.join(tmp, "backup.tar.gz")) as tar:
        tar.extractall(path=RESTORE_DIR)
