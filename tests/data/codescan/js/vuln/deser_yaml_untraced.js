function loadPlugin(text) {
  return yaml.load(text, { schema: yaml.DEFAULT_FULL_SCHEMA });
}
