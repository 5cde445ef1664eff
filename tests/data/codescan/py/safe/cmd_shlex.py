def ping(host):
    out = subprocess.run(["ping", "-c", "1", host], capture_output=True, check=False)
    return out.stdout

def archive(path):
    os.system("tar czf /tmp/backup.tgz " + shlex.quote(path))
