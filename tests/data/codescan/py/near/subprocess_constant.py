def git_version():
    out = subprocess.check_output("git --version", shell=True, text=True)
    return out.strip()

def disk_usage():
    return os.popen("df -h /").read()
