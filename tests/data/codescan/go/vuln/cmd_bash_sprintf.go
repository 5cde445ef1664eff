func backup(dir string) error {
	cmd := exec.Command("bash", "-c", fmt.Sprintf("tar czf /backups/%s.tgz %s", filepath.Base(dir), dir))
	return cmd.Run()
}
