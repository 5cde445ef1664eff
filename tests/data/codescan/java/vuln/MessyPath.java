```java
@GetMapping("/files/{name}")
public Resource file(@PathVariable String name) {
    return new FileSystemResource(BASE_DIR + "/" + name);
}
```
