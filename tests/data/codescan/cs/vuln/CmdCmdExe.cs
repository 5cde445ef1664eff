    public void Archive(string folder)
    {
        Process.Start("cmd.exe", $"/c tar -czf backup.tgz {folder}");
    }
