const [csrfToken] = useState(() => Math.random().toString(36).substring(2));
