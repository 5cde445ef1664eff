    branch = params[:branch]
    stdout, status = Open3.capture2("git log --oneline #{branch}")
