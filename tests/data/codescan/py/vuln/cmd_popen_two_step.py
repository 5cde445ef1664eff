    branch = request.json.get("branch")
    cmd = "git checkout " + branch + " && git pull"
    proc = subprocess.Popen(cmd, shell=True, stdout=subprocess.PIPE)
