	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		target := filepath.Join(dst, hdr.Name)
		f, _ := os.OpenFile(target, os.O_CREATE|os.O_RDWR, os.FileMode(hdr.Mode))
		io.Copy(f, tr)
		f.Close()
	}
