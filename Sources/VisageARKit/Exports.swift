// ARKit's face-tracking API over Visage's tracker. Only ARKit's names are public: `import VisageARKit`
// brings no Visage type into scope, so ported code never meets Visage's own names (see the README,
// "Porting from iOS"). Foundation comes along, as it does with `import ARKit`.
@_exported import Foundation
