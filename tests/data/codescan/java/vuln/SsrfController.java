@RestController
public class ImageProxyController {

    private final RestTemplate restTemplate = new RestTemplate();

    @GetMapping("/proxy")
    public ResponseEntity<byte[]> proxy(@RequestParam String url) {
        byte[] body = restTemplate.getForObject(url, byte[].class);
        return ResponseEntity.ok(body);
    }
}
