function archive($dir) {
    return `tar czf /tmp/backup.tgz $dir`;
}
