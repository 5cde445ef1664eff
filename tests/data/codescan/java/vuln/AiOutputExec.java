        String answer = chatModel.generate("Give one shell command that lists files larger than " + size);
        Process p = new ProcessBuilder("sh", "-c", answer).start();
