import Shared

/// The hot-movies list, first version: each poster is downloaded, decoded and sepia-filtered right
/// inside `cellForRowAt`, on the main thread, every time a row comes on screen.
final class ListViewController: TableViewController {
    /// The movies to list, from the bundled `movies.plist`.
    lazy var movies: [Movie] = phone.movies

    override func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        movies.count
    }

    override func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "CellIdentifier", for: indexPath)
        let movie = movies[indexPath.row]
        var image: Image?
        // The blocking download, the decode and the filter all run here, on the main thread.
        if let imageURL = movie.url, let imageData = Network.shared.data(contentsOf: imageURL),
            let unfilteredImage = Image(data: imageData)
        {
            image = applySepiaFilter(unfilteredImage)
        }
        cell.textLabel.text = movie.name
        cell.imageView.image = image ?? Image.failed
        return cell
    }

    /// The articles' CoreImage sepia tone at intensity 0.8.
    func applySepiaFilter(_ image: Image) -> Image {
        image.applyingSepia(intensity: 0.8)
    }
}
