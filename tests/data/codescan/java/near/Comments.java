    /**
     * Runs the bundled tool. Never build the command with user input, e.g.
     * Runtime.getRuntime().exec("sh -c " + userInput) is a command injection.
     */
    public int runTool() throws Exception {
        return new ProcessBuilder("/opt/tool/bin/tool", "--check").inheritIO().start().waitFor();
    }
