            File out = new File(destDir, entry.getName());
            if (!out.getCanonicalPath().startsWith(destDir.getCanonicalPath() + File.separator)) {
                throw new IOException("entry outside target dir: " + entry.getName());
            }
