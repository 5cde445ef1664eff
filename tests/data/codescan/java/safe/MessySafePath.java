// ... inside the controller
Path root = Paths.get(BASE_DIR).toRealPath();
Path file = root.resolve(name).normalize();
if (!file.startsWith(root)) {
    throw new ResponseStatusException(HttpStatus.FORBIDDEN);
}
...
