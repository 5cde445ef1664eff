        ObjectMapper mapper = new ObjectMapper();
        UserDto dto = mapper.readValue(body, UserDto.class);
        Yaml yaml = new Yaml(new SafeConstructor(new LoaderOptions()));
        Map<String, Object> cfg = yaml.load(text);
