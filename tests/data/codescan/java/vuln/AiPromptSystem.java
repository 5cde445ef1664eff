    @PostMapping("/assistant")
    public String assistant(@RequestParam String tone, @RequestParam String question) {
        List<ChatMessage> messages = List.of(
                SystemMessage.from("You are an assistant. Answer in a " + tone + " tone."),
                UserMessage.from(question));
        return model.generate(messages).content().text();
    }
