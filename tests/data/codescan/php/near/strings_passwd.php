<?php
const TRAVERSAL_SIGNATURES = ['../', '..\\', '/etc/passwd', 'php://filter'];
function looksMalicious(string $path): bool {
    foreach (TRAVERSAL_SIGNATURES as $sig) {
        if (str_contains($path, $sig)) return true;
    }
    return false;
}
