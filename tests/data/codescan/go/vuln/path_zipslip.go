func unzip(src, dest string) error {
	r, err := zip.OpenReader(src)
	if err != nil {
		return err
	}
	defer r.Close()
	for _, f := range r.File {
		path := filepath.Join(dest, f.Name)
		if f.FileInfo().IsDir() {
			os.MkdirAll(path, 0o755)
			continue
		}
		rc, _ := f.Open()
		out, _ := os.Create(path)
		io.Copy(out, rc)
		out.Close()
		rc.Close()
	}
	return nil
}
