    private static final String SYSTEM = "You are a support assistant. Answer only about our products.";

    @PostMapping("/assistant")
    public String assistant(@RequestParam String question) {
        return model.generate(List.of(SystemMessage.from(SYSTEM), UserMessage.from(question))).content().text();
    }
