<?php
$zip = new ZipArchive();
if ($zip->open($_FILES['archive']['tmp_name']) === true) {
    for ($i = 0; $i < $zip->numFiles; $i++) {
        $name = $zip->getNameIndex($i);
        file_put_contents(UPLOAD_DIR . '/' . $name, $zip->getFromIndex($i));
    }
    $zip->close();
}
