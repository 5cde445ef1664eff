    @GetMapping("/calc")
    public Object calc(@RequestParam String expr) {
        ExpressionParser parser = new SpelExpressionParser();
        return parser.parseExpression(expr).getValue();
    }
