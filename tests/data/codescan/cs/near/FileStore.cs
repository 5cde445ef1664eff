namespace Storage;

/// <summary>Files live under server-generated GUID names; callers only pass an id back.</summary>
public sealed class FileStore
{
    private readonly string _root;

    public FileStore(string root) => _root = Path.GetFullPath(root);

    public async Task<Guid> SaveAsync(byte[] data)
    {
        var id = Guid.NewGuid();
        await File.WriteAllBytesAsync(Path.Combine(_root, id + ".bin"), data);
        return id;
    }

    public Task<byte[]> LoadAsync(string id)
    {
        var parsed = Guid.Parse(id); // FormatException for anything else
        return File.ReadAllBytesAsync(Path.Combine(_root, parsed + ".bin"));
    }
}
