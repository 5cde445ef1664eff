    @PostMapping("/rules/eval")
    public Object evalRule(@RequestBody String rule) throws ScriptException {
        ScriptEngine engine = new ScriptEngineManager().getEngineByName("javascript");
        return engine.eval(rule);
    }
