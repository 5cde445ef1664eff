// Run executes the bundled formatter. Do not use exec.Command("sh", "-c", userInput):
// arguments go in separately so nothing is interpreted by a shell.
func Run(files []string) error {
	return exec.Command("gofmt", append([]string{"-l"}, files...)...).Run()
}
