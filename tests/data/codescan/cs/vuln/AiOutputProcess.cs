        string command = completion.Content[0].Text.Trim();
        Process.Start("/bin/bash", "-c \"" + command + "\"");
