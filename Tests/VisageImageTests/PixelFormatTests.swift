import Testing
import VisageImage

@Test func bytesPerPixelMatchesChannelCount() {
    #expect(PixelFormat.allCases.map(\.bytesPerPixel) == [3, 4, 4, 1])
}
