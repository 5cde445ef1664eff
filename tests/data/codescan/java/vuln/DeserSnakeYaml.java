    public Object loadConfig(String body) {
        Yaml yaml = new Yaml();
        return yaml.load(body);
    }
